package audit

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/sanitize"
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
)

// Record is one decided event, as stored and as `atreides log --json`
// prints it. Keys without omitempty are in every record.
type Record struct {
	Time        string           `json:"time"` // UTC, RFC 3339 with microseconds
	Host        string           `json:"host"`
	Session     string           `json:"session"`
	Event       string           `json:"event"`      // the engine's kind, e.g. pre_tool
	HostEvent   string           `json:"host_event"` // the host's name, e.g. PreToolUse
	Agent       string           `json:"agent,omitempty"`
	Tool        string           `json:"tool"` // the host's tool name, e.g. Bash
	Command     string           `json:"command,omitempty"`
	Paths       []string         `json:"paths,omitempty"`
	Verdict     string           `json:"verdict"` // allow, ask, deny or none
	Rule        string           `json:"rule"`
	Reason      string           `json:"reason,omitempty"`
	Block       bool             `json:"block"`
	BlockReason string           `json:"block_reason,omitempty"`
	TotalUS     int64            `json:"total_us"`             // the engine's time: preparation, state lock, handlers, save
	PrepareUS   map[string]int64 `json:"prepare_us,omitempty"` // per handler, before the state lock
	HandleUS    map[string]int64 `json:"handle_us,omitempty"`  // per handler, under it
}

// Wanted reports whether an event's decision goes into the trail: every
// tool call a host asks permission for, and any other event on which
// something was decided (see the package comment).
func Wanted(ev *event.Event, d *event.Decision) bool {
	switch ev.Kind {
	case event.PreTool, event.PermissionRequest:
		return true
	}
	return d.Verdict != event.None || d.Block
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
		Verdict:   d.Verdict.String(),
		Rule:      sanitize.String(d.Rule, maxName),
		Block:     d.Block,
		TotalUS:   total.Microseconds(),
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

// When is the record's time; zero if it cannot be read.
func (r *Record) When() time.Time {
	t, _ := time.Parse(time.RFC3339Nano, r.Time)
	return t
}

// line is the record as written: one JSON object and a newline. HTML
// escaping is off so a command reads `a && b > c` in the file, not
// `a \u0026\u0026 b \u003e c`.
func (r *Record) line() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(512)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil { // Encode ends the line
		return nil, err
	}
	return b.Bytes(), nil
}

// Decode reads one stored record.
func Decode(line []byte) (Record, error) {
	var r Record
	err := json.Unmarshal(line, &r)
	return r, err
}
