package audit

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/atreides-dev/atreides/internal/ctxbudget"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/sanitize"
	"github.com/atreides-dev/atreides/internal/store"
)

// stampLayout is a record's time: UTC, fixed width, so records compare
// as text and a --since filter needs no parsing.
const stampLayout = "2006-01-02T15:04:05.000000Z07:00"

// Caps on free text, so one record stays a few KiB whatever the event.
const (
	maxReason = 2000
	maxPath   = 500
	maxPaths  = 20
	maxName   = 200
	maxMark   = 300
	maxPrompt = 160
	maxMarks  = 40 // a todo list written whole may open that many at once
)

// Record is one decided event, as stored and as `atreides log --json`
// prints it. Keys without omitempty are in every record.
type Record struct {
	Time        string   `json:"time"` // UTC, RFC 3339 with microseconds
	Host        string   `json:"host"`
	Session     string   `json:"session"`
	Event       string   `json:"event"`      // the engine's kind, e.g. pre_tool
	HostEvent   string   `json:"host_event"` // the host's name, e.g. PreToolUse
	Agent       string   `json:"agent,omitempty"`
	Tool        string   `json:"tool"` // the host's tool name, e.g. Bash
	Command     string   `json:"command,omitempty"`
	Paths       []string `json:"paths,omitempty"`
	Verdict     string   `json:"verdict"` // allow, ask, deny or none (see [VerdictOf])
	Rule        string   `json:"rule"`
	Reason      string   `json:"reason,omitempty"`
	Block       bool     `json:"block"`
	BlockReason string   `json:"block_reason,omitempty"`
	// Call is the host's tool-use id, which pairs a call's pre and post
	// events (the read model's spans); empty when the host sends none.
	Call string `json:"call,omitempty"`
	// Prompt is a user prompt's first words (one line, sanitized, at most
	// maxPrompt bytes): the root of the prompt's span in the trace view
	// and the session's title. The whole prompt is never kept.
	Prompt string `json:"prompt,omitempty"`
	// Outcome is a post_tool event's: ok, or failed (the host said so).
	Outcome   string           `json:"outcome,omitempty"`
	TotalUS   int64            `json:"total_us"`             // the engine's time: preparation, state lock, handlers, save
	PrepareUS map[string]int64 `json:"prepare_us,omitempty"` // per handler, before the state lock
	HandleUS  map[string]int64 `json:"handle_us,omitempty"`  // per handler, under it
	// Marks are what the event changed in the session's story (package
	// marks): the session timeline's points besides the tool calls.
	Marks []event.Mark `json:"marks,omitempty"`
	// ContextBytes is what the event put before the model, in bytes per
	// kind (package ctxbudget: the context entries by source, "refusal"
	// and "block" for those reasons).
	ContextBytes map[string]int `json:"context_bytes,omitempty"`
	// Machine and Checkout say where a record of a team's shared trail
	// was written (see [Origin]); empty in a trail of one machine.
	Machine  string `json:"machine,omitempty"`
	Checkout string `json:"checkout,omitempty"`
}

// Origin is where a decision was made, for a trail shared by a team's
// machines (the store's [store.Origin] of the team store). The zero
// Origin, for a trail of one machine, adds nothing.
type Origin = store.Origin

// VerdictOf is the verdict a record of an event of kind says: a tool call
// atreides let through is "allow", whether a handler said so or none
// spoke (then the host's own permission flow applied; the record's rule is
// empty). Records written before this was so say "none" for such a call,
// and are read through here too, so `log --verdict allow` finds them.
// Other events keep "none" when nothing was decided: no call was allowed.
func VerdictOf(kind, verdict string) string {
	if toolCall(kind) {
		return CallVerdict(verdict)
	}
	return verdict
}

// CallVerdict is VerdictOf for a tool call: "allow" for a call no handler
// stopped, whether one allowed it or none spoke ("none", or "" where a
// record leaves the verdict out, as a session's list of its last calls
// does).
func CallVerdict(verdict string) string {
	if verdict == "" || verdict == event.None.String() {
		return event.Allow.String()
	}
	return verdict
}

// toolCall reports whether an event of kind asks about a tool call.
func toolCall(kind string) bool {
	return kind == string(event.PreTool) || kind == string(event.PermissionRequest)
}

// Line is one decided event's line as the trail stores it, the project's
// file and a team store's bucket alike (the same bytes): one JSON object
// and a newline. took is the engine's time on the event so far; from is
// where it was decided (the zero Origin outside a team's project).
func Line(ev *event.Event, d *event.Decision, took time.Duration, from Origin) []byte {
	r := NewRecord(ev, d, took)
	r.Machine, r.Checkout = sanitize.String(from.Machine, maxName), sanitize.String(from.Checkout, maxPath)
	if from != (Origin{}) {
		// A team's shared trail is read by the whole team: what a person
		// typed to their agent stays on their machine.
		r.Prompt = ""
	}
	return r.line()
}

// MarkMore is the kind of a record's last mark when the event had more
// than a record keeps; its text says how many were left out.
const MarkMore = "more"

// Wanted reports whether an event's decision goes into the trail: every
// tool call a host asks permission for, the few lifecycle events of a
// session (start, end, compaction, subagents), each user prompt (the roots
// of the session's trace; a prompt is a few per hour, not a cost), and any other event on
// which something was decided or that left marks (see the package
// comment).
func Wanted(ev *event.Event, d *event.Decision) bool {
	switch ev.Kind {
	case event.PreTool, event.PermissionRequest, event.UserPrompt:
		return true
	}
	if Lifecycle(ev.Kind) && (ev.Kind != event.SessionStart || ev.Starts()) {
		return true // a session's start only when it started one
	}
	// An event that put context before the model is kept too, so that
	// the trail accounts for every byte of it (context_bytes).
	return d.Verdict != event.None || d.Block || len(d.Marks) > 0 || len(d.Context) > 0 && ctxbudget.Counted(ev)
}

// Lifecycle reports whether events of kind k are of the few of a
// session's life that the trail keeps whatever was decided on them
// (Wanted): its start and end, a compaction, a subagent's start and stop.
func Lifecycle(k event.Kind) bool {
	switch k {
	case event.SessionStart, event.SessionEnd, event.PreCompact, event.SubagentStart, event.SubagentStop:
		return true
	}
	return false
}

// NewRecord describes one decided event; total is the engine's time on it.
// Free text is sanitized here, so nothing else needs to.
func NewRecord(ev *event.Event, d *event.Decision, total time.Duration) *Record {
	at := ev.Time
	if at.IsZero() {
		at = time.Now()
	}
	r := &Record{
		Time:      at.UTC().Format(stampLayout),
		Host:      sanitize.String(ev.Host, maxName),
		Session:   sanitize.String(ev.SessionID, maxName),
		Event:     string(ev.Kind),
		HostEvent: sanitize.String(ev.HostEvent, maxName),
		Agent:     sanitize.String(ev.AgentType, maxName),
		Tool:      sanitize.String(ev.Tool.Raw, maxName),
		Verdict:   VerdictOf(string(ev.Kind), d.Verdict.String()),
		Rule:      sanitize.String(d.Rule, maxName),
		Block:     d.Block,
		TotalUS:   total.Microseconds(),
	}
	if ev.ToolUseID != "" {
		r.Call = sanitize.String(ev.ToolUseID, maxName)
	}
	switch ev.Kind {
	case event.UserPrompt:
		r.Prompt = promptExcerpt(ev.Prompt)
	case event.PostTool:
		r.Outcome = "ok"
		if ev.Failed {
			r.Outcome = "failed"
		}
	}
	if ev.Tool.Command != "" {
		r.Command = sanitize.Command(ev.Tool.Command)
	}
	for i, p := range ev.Tool.Paths {
		if i == maxPaths {
			r.Paths = append(r.Paths, "…")
			break
		}
		r.Paths = append(r.Paths, sanitize.String(p, maxPath))
	}
	if d.Verdict >= event.Ask {
		r.Reason = sanitize.String(d.Reason, maxReason)
	}
	if d.Block {
		r.BlockReason = sanitize.String(d.BlockReason, maxReason)
	}
	r.ContextBytes = ctxbudget.Of(d)
	for i, m := range d.Marks {
		if i == maxMarks {
			r.Marks = append(r.Marks, event.Mark{Kind: MarkMore, Text: strconv.Itoa(len(d.Marks)-i) + " more"})
			break
		}
		r.Marks = append(r.Marks, event.Mark{Kind: sanitize.String(m.Kind, maxName), Text: sanitize.String(m.Text, maxMark)})
	}
	if len(d.Timings) > 0 {
		r.HandleUS = make(map[string]int64, len(d.Timings))
		for _, t := range d.Timings {
			r.HandleUS[t.Handler] = t.Handle.Microseconds()
			if t.Prepare > 0 {
				if r.PrepareUS == nil {
					r.PrepareUS = map[string]int64{}
				}
				r.PrepareUS[t.Handler] = t.Prepare.Microseconds()
			}
		}
	}
	return r
}

// line is the record as written: one JSON object and a newline, the
// bytes encoding/json would write with HTML escaping off (so a command
// reads `a && b > c`, not `a \u0026\u0026 b \u003e c`), keys in the
// struct's order. It is written by hand because a hook process writes one
// record and dies: encoding/json would build its reflection encoder for
// Record in every hook, about 0.1 ms (TestLineIsJSON keeps the two equal).
func (r *Record) line() []byte {
	b := make([]byte, 0, 512)
	b = appendField(b, `{"time":`, r.Time)
	b = appendField(b, `,"host":`, r.Host)
	b = appendField(b, `,"session":`, r.Session)
	b = appendField(b, `,"event":`, r.Event)
	b = appendField(b, `,"host_event":`, r.HostEvent)
	if r.Agent != "" {
		b = appendField(b, `,"agent":`, r.Agent)
	}
	b = appendField(b, `,"tool":`, r.Tool)
	if r.Command != "" {
		b = appendField(b, `,"command":`, r.Command)
	}
	if len(r.Paths) > 0 {
		b = append(b, `,"paths":[`...)
		for i, p := range r.Paths {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, p)
		}
		b = append(b, ']')
	}
	b = appendField(b, `,"verdict":`, r.Verdict)
	b = appendField(b, `,"rule":`, r.Rule)
	if r.Reason != "" {
		b = appendField(b, `,"reason":`, r.Reason)
	}
	b = strconv.AppendBool(append(b, `,"block":`...), r.Block)
	if r.BlockReason != "" {
		b = appendField(b, `,"block_reason":`, r.BlockReason)
	}
	if r.Call != "" {
		b = appendField(b, `,"call":`, r.Call)
	}
	if r.Prompt != "" {
		b = appendField(b, `,"prompt":`, r.Prompt)
	}
	if r.Outcome != "" {
		b = appendField(b, `,"outcome":`, r.Outcome)
	}
	b = strconv.AppendInt(append(b, `,"total_us":`...), r.TotalUS, 10)
	if len(r.PrepareUS) > 0 {
		b = AppendMicros(append(b, `,"prepare_us":`...), r.PrepareUS)
	}
	if len(r.HandleUS) > 0 {
		b = AppendMicros(append(b, `,"handle_us":`...), r.HandleUS)
	}
	if len(r.Marks) > 0 {
		b = append(b, `,"marks":[`...)
		for i, m := range r.Marks {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendField(b, `{"kind":`, m.Kind)
			b = append(appendField(b, `,"text":`, m.Text), '}')
		}
		b = append(b, ']')
	}
	if len(r.ContextBytes) > 0 {
		b = append(b, `,"context_bytes":{`...)
		for i, k := range slices.Sorted(maps.Keys(r.ContextBytes)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(append(AppendString(b, k), ':'), int64(r.ContextBytes[k]), 10)
		}
		b = append(b, '}')
	}
	if r.Machine != "" {
		b = appendField(b, `,"machine":`, r.Machine)
	}
	if r.Checkout != "" {
		b = appendField(b, `,"checkout":`, r.Checkout)
	}
	return append(b, "}\n"...)
}

// promptExcerpt is the first words of a prompt on one line: enough to
// title a session and a trace's root, never the whole text. A pasted log
// of a megabyte is cut before it is split, so a prompt costs the same
// whatever its size; secrets are masked before the cap. The first cut
// goes back to the last space before it: a word cut in two (a token at
// the cut) is no longer what the masking rules recognise, and its first
// half would be kept in the clear.
func promptExcerpt(p string) string {
	if len(p) > 4*maxPrompt {
		p = p[:4*maxPrompt]
		p = p[:max(0, strings.LastIndexFunc(p, unicode.IsSpace))]
	}
	p = sanitize.String(strings.Join(strings.Fields(p), " "), 0)
	if len(p) <= maxPrompt {
		return p
	}
	cut := maxPrompt
	for cut > 0 && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return p[:cut] + "…"
}

func appendField(b []byte, key, v string) []byte { return AppendString(append(b, key...), v) }

// AppendMicros writes a map as encoding/json does: keys sorted (the
// handler times of a record, and of a span in package spans).
func AppendMicros(b []byte, m map[string]int64) []byte {
	b = append(b, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(append(AppendString(b, k), ':'), m[k], 10)
	}
	return append(b, '}')
}

// AppendString writes s as a JSON string, escaped as encoding/json does
// without HTML escaping: quote, backslash and control characters, U+2028
// and U+2029 (which end a line in JavaScript), invalid UTF-8 as U+FFFD.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(append(b, s[start:i]...), `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(append(b, s[start:]...), '"')
}
