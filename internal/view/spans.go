package view

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/state"
)

// Span kinds: what a node of a session's trace stands for.
const (
	SpanPrompt     = "prompt"     // a user prompt: the root of what followed it
	SpanTool       = "tool"       // one tool call, pre paired with post
	SpanDelegation = "delegation" // a subagent, from its start to its stop
	SpanBackground = "background" // a background task the session launched
	SpanEvent      = "event"      // a session's start, end, compaction or stop
)

// Outcomes of a tool span.
const (
	OutcomeOK      = "ok"
	OutcomeFailed  = "failed"
	OutcomeBlocked = "blocked" // the guard denied it: it never ran
	OutcomePending = "pending" // no post event yet
	OutcomeUnknown = "unknown" // older than the session's call history, and the trail has no post record
)

// Span is one node of a session's trace: the one model of pre/post pairing
// and of nesting by delegation that the export, the dashboard and the
// terminal view read. Parent is "" for a root.
type Span struct {
	// ID is unique in the trace: p<n> for prompts, t<n> for tool calls,
	// a:<agent id> for delegations, the task's id (bg-N) for background
	// tasks, e<n> for events.
	ID string `json:"id"`
	// Parent is the span it nests under; "" for a root.
	Parent string `json:"parent,omitempty"`
	// Depth is 0 for a root.
	Depth int `json:"depth"`
	// Kind is prompt, tool, delegation, background or event.
	Kind string `json:"kind"`
	// Title is one line: the prompt's first words, tool: target, the
	// agent's type, the task's description, the host's event name.
	Title string `json:"title"`
	// Start is when it began (a tool call: its pre event).
	Start time.Time `json:"start"`
	// End is when it ended; absent while it runs or when unknown.
	End time.Time `json:"end,omitzero"`
	// DurationMS is End - Start, or the host's duration of a tool call;
	// -1 when unknown.
	DurationMS int64 `json:"duration_ms"`
	// Call is the host's tool-use id of a tool call.
	Call string `json:"call,omitempty"`
	// Tool is the host's tool name.
	Tool string `json:"tool,omitempty"`
	// Kind of tool as the guard knows it (shell, read, write, edit,
	// search, ...), when known: what `atreides check --tool` takes.
	ToolKind string `json:"tool_kind,omitempty"`
	// Target is the command or the paths a tool call acted on.
	Target string `json:"target,omitempty"`
	// Agent is the subagent's type, for a span of or under a delegation.
	Agent string `json:"agent,omitempty"`
	// AgentID is the host's id of that subagent, when known.
	AgentID string `json:"agent_id,omitempty"`
	// Verdict is the guard's: allow, ask, deny, or none.
	Verdict string `json:"verdict,omitempty"`
	// Rule is the rule that decided.
	Rule string `json:"rule,omitempty"`
	// Reason is why, for ask and deny, or why a stop was kept going.
	Reason string `json:"reason,omitempty"`
	// Session is a background task's own session (its child session, or
	// the headless CLI's), when it reported one: the trace to follow it in.
	Session string `json:"session,omitempty"`
	// Outcome is a tool call's (ok, failed, blocked, pending, unknown), a
	// delegation's (ok, completed, failed, ..., running) or a background
	// task's status.
	Outcome string `json:"outcome,omitempty"`
}

// Trace is a session's spans, depth first, children in time order.
type Trace struct {
	// Session is the session's id.
	Session string `json:"session"`
	// Title is the first prompt's first words; "" before any prompt.
	Title string `json:"title"`
	// Spans are depth first; a span's children follow it.
	Spans []Span `json:"spans"`
}

// SpanFilter bounds a trace by time: a span is kept when it starts in
// [Since, Until), with its ancestors so that the tree holds.
type SpanFilter struct {
	Since, Until time.Time
}

func (f SpanFilter) keeps(t time.Time) bool {
	return (f.Since.IsZero() || !t.Before(f.Since)) && (f.Until.IsZero() || t.Before(f.Until))
}

// titleWords is how many words of the first prompt title a session.
const titleWords = 8

// Title is a session's title: the first words of its first prompt.
func Title(prompt string) string {
	w := strings.Fields(prompt)
	if len(w) > titleWords {
		return strings.Join(w[:titleWords], " ") + " …"
	}
	return strings.Join(w, " ")
}

// Trace reads the session's trace from the audit trail (nil: none) and
// the session's records.
func (s *Snapshot) Trace(t audit.Reader, session string, f SpanFilter) (*Trace, error) {
	var recs []audit.Record
	if t != nil {
		var err error
		if recs, _, err = readLines(t, audit.Filter{Session: session}, 0); err != nil {
			return nil, err
		}
	}
	return BuildTrace(recs, sessOr(s.Session(session), session), s.Background(session), f), nil
}

// Spans is the trace of the session's records without the background
// tasks, a shorthand of [BuildTrace] for callers that hold them.
func Spans(recs []audit.Record, sess *state.Session) []Span {
	return BuildTrace(recs, sess, nil, SpanFilter{}).Spans
}

// DurationOf is a span's duration, or false when unknown.
func (sp *Span) DurationOf() (time.Duration, bool) {
	if sp.DurationMS < 0 {
		return 0, false
	}
	return time.Duration(sp.DurationMS) * time.Millisecond, true
}

// Failed reports whether a tool span's call failed.
func (sp *Span) Failed() bool { return sp.Kind == SpanTool && sp.Outcome == OutcomeFailed }

// spanSet is a trace being built.
type spanSet struct {
	spans  []*Span
	byCall map[string]*Span
	// open are the calls of hosts that send no tool-use id, still waiting
	// for their post event, oldest first: one pairs with the first open
	// call of the same agent, tool and target.
	open        []*Span
	prompts     []*Span
	agents      map[string]*Span // by agent id
	parentAgent map[*Span]string // a nested delegation's parent's agent id
	parent      map[*Span]*Span
	calls       int
	events      int
}

func (b *spanSet) add(sp *Span) *Span {
	b.spans = append(b.spans, sp)
	return sp
}

func (b *spanSet) toolID() string {
	b.calls++
	return "t" + strconv.Itoa(b.calls)
}

// stampOf is the record's time in UTC; zero when it does not parse.
func stampOf(r *audit.Record) time.Time {
	at, _ := time.Parse(time.RFC3339Nano, r.Time)
	return at.UTC()
}

// durationBetween is end - start in ms, -1 when either is unknown.
func durationBetween(start, end time.Time) int64 {
	if start.IsZero() || end.IsZero() || end.Before(start) {
		return -1
	}
	return end.Sub(start).Milliseconds()
}

// errFound stops a read of the trail early.
var errFound = errors.New("found")

// FirstPrompts reads the first prompt the trail holds of each of the
// sessions, in one pass that stops once every one is found: the sessions'
// titles ([Title] of each).
func FirstPrompts(t audit.Reader, sessions []string) (map[string]string, error) {
	out := make(map[string]string, len(sessions))
	want := make(map[string]bool, len(sessions))
	for _, id := range sessions {
		want[id] = true
	}
	if len(want) == 0 {
		return out, nil
	}
	_, err := t.Read(audit.Filter{}, func(line []byte) error {
		if !bytes.Contains(line, []byte(`"event":"user_prompt"`)) {
			return nil // most lines: no decoding
		}
		var r audit.Record
		if json.Unmarshal(line, &r) != nil || !want[r.Session] || r.Prompt == "" {
			return nil
		}
		out[r.Session] = r.Prompt
		delete(want, r.Session)
		if len(want) == 0 {
			return errFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return out, fmt.Errorf("read the audit trail: %w", err)
	}
	return out, nil
}
