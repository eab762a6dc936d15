package spans

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/sanitize"
)

// maxText caps each free-text attribute.
const maxText = 200

// Scope names: what an event span's parent stands for.
const (
	ScopeSession  = "session"  // the session's root span
	ScopeSubagent = "subagent" // a delegation's span, under the root
)

// Span is one event's span as spooled. Ids are lowercase hex, as OTLP's
// JSON form writes them; times are Unix nanoseconds.
type Span struct {
	Trace  string `json:"trace"`
	ID     string `json:"span"`
	Parent string `json:"parent"`
	// Scope is what Parent stands for, ScopeSession or ScopeSubagent;
	// Root is the session's root span (Parent itself in the session
	// scope). Closes is set on the event that ends the scope.
	Scope  string `json:"scope"`
	Root   string `json:"root"`
	Closes bool   `json:"closes,omitempty"`
	Name   string `json:"name"` // atreides.<event kind>
	Start  int64  `json:"start"`
	End    int64  `json:"end"`

	Host      string `json:"host"`
	Session   string `json:"session"`
	Event     string `json:"event"`
	HostEvent string `json:"host_event"`
	Tool      string `json:"tool,omitempty"`
	Verdict   string `json:"verdict"`
	Rule      string `json:"rule,omitempty"`
	Block     bool   `json:"block,omitempty"`
	AgentID   string `json:"agent_id,omitempty"`
	AgentType string `json:"agent_type,omitempty"`
	// PrepareUS and HandleUS are each handler's time, as the audit
	// trail keeps them: before the state lock and under it.
	PrepareUS map[string]int64 `json:"prepare_us,omitempty"`
	HandleUS  map[string]int64 `json:"handle_us,omitempty"`
}

// TraceID is the trace of a session of the project at root.
func TraceID(root, session string) string { return idOf(16, "trace", root, session) }

// RootID is the root span of a session's trace.
func RootID(trace string) string { return idOf(8, "root", trace) }

// AgentSpanID is the span of a delegation to the agent agentID in a trace.
func AgentSpanID(trace, agentID string) string { return idOf(8, "agent", trace, agentID) }

// idOf is n bytes of a hash of parts, in hex; parts are separated by a
// byte no path or id holds, so ("a", "bc") and ("ab", "c") differ.
func idOf(n int, parts ...string) string {
	h := sha256.New()
	h.Write([]byte("atreides.otel"))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil)[:n])
}

// New describes one decided event of the project at root; start is when
// the engine began on it, took how long it took.
func New(root string, ev *event.Event, d *event.Decision, start time.Time, took time.Duration) *Span {
	trace := TraceID(root, ev.SessionID)
	s := &Span{
		Trace: trace, ID: spanID(), Root: RootID(trace),
		Name:  "atreides." + string(ev.Kind),
		Start: start.UnixNano(), End: start.Add(took).UnixNano(),
		Host:      sanitize.String(ev.Host, maxText),
		Session:   sanitize.String(ev.SessionID, maxText),
		Event:     string(ev.Kind),
		HostEvent: sanitize.String(ev.HostEvent, maxText),
		Tool:      sanitize.String(ev.Tool.Raw, maxText),
		Verdict:   audit.VerdictOf(string(ev.Kind), d.Verdict.String()), // as the audit trail says it
		Rule:      sanitize.String(d.Rule, maxText),
		Block:     d.Block,
		AgentID:   sanitize.String(ev.AgentID, maxText),
		AgentType: sanitize.String(ev.AgentType, maxText),
	}
	if ev.AgentID != "" {
		s.Scope, s.Parent, s.Closes = ScopeSubagent, AgentSpanID(trace, ev.AgentID), ev.Kind == event.SubagentStop
	} else {
		s.Scope, s.Parent, s.Closes = ScopeSession, s.Root, ev.Kind == event.SessionEnd
	}
	for _, t := range d.Timings {
		name := sanitize.String(t.Handler, maxText)
		if s.HandleUS == nil {
			s.HandleUS = make(map[string]int64, len(d.Timings))
		}
		s.HandleUS[name] = t.Handle.Microseconds()
		if t.Prepare > 0 {
			if s.PrepareUS == nil {
				s.PrepareUS = map[string]int64{}
			}
			s.PrepareUS[name] = t.Prepare.Microseconds()
		}
	}
	return s
}

// spanID is a random span id: an event's span is written once, by one
// process, so it needs no derivation, only not to be zero.
func spanID() string {
	var b [8]byte
	for b == [8]byte{} {
		v := rand.Uint64()
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
	}
	return hex.EncodeToString(b[:])
}

// Line is the span as spooled: one JSON object and a newline, keys in the
// struct's order, written by hand for the reason audit.Record's line is
// (encoding/json's reflection would cost a hook about 0.1 ms).
// TestLineIsJSON keeps the two equal.
func (s *Span) Line() []byte {
	b := make([]byte, 0, 512)
	b = field(b, `{"trace":`, s.Trace)
	b = field(b, `,"span":`, s.ID)
	b = field(b, `,"parent":`, s.Parent)
	b = field(b, `,"scope":`, s.Scope)
	b = field(b, `,"root":`, s.Root)
	if s.Closes {
		b = append(b, `,"closes":true`...)
	}
	b = field(b, `,"name":`, s.Name)
	b = strconv.AppendInt(append(b, `,"start":`...), s.Start, 10)
	b = strconv.AppendInt(append(b, `,"end":`...), s.End, 10)
	b = field(b, `,"host":`, s.Host)
	b = field(b, `,"session":`, s.Session)
	b = field(b, `,"event":`, s.Event)
	b = field(b, `,"host_event":`, s.HostEvent)
	b = optional(b, `,"tool":`, s.Tool)
	b = field(b, `,"verdict":`, s.Verdict)
	b = optional(b, `,"rule":`, s.Rule)
	if s.Block {
		b = append(b, `,"block":true`...)
	}
	b = optional(b, `,"agent_id":`, s.AgentID)
	b = optional(b, `,"agent_type":`, s.AgentType)
	if len(s.PrepareUS) > 0 {
		b = audit.AppendMicros(append(b, `,"prepare_us":`...), s.PrepareUS)
	}
	if len(s.HandleUS) > 0 {
		b = audit.AppendMicros(append(b, `,"handle_us":`...), s.HandleUS)
	}
	return append(b, "}\n"...)
}

func field(b []byte, key, v string) []byte { return audit.AppendString(append(b, key...), v) }

func optional(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return field(b, key, v)
}
