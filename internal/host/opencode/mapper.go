package opencode

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// Runner decides one event: the engine, with the state store opened for
// the one call.
type Runner func(ctx context.Context, ev *event.Event) *event.Decision

// Mapper answers OpenCode hooks: it decodes, fills in what depends on the
// session's earlier hooks, runs the engine and encodes. It is safe for
// concurrent use; the caller keeps one session's requests in order.
type Mapper struct {
	Run Runner
	// Flavor is the host the plugin runs in (the zero value: OpenCode).
	Flavor Flavor
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Logf logs a line for the user (dropped when nil).
	Logf func(format string, args ...any)
	// Reply, if set, is given the lead agent's finished text and returns
	// it as it should stand (the identity prefix): ev says where it was
	// written (its Cwd and session).
	Reply func(ev *event.Event, text string) string
	// CompactionPrompt, if set, gives the prompt that replaces OpenCode's
	// own for a compaction of ev's session ("" keeps OpenCode's).
	CompactionPrompt func(ev *event.Event) string
	// Agents, if set, gives the agents the config hook adds for the
	// project OpenCode runs in (MethodConfig).
	Agents func(directory string) map[string]Agent
	// Memory, if set, keeps the child sessions' links and the placed
	// context in the project's store (see [Memory]); without it they live
	// as long as the mapper.
	Memory Memory

	mu       sync.Mutex
	sessions map[string]*tracked
}

// maxTracked bounds the sessions kept in memory; the least recently seen
// is forgotten first.
const maxTracked = 512

// tracked is what the mapper remembers of one session between hooks.
type tracked struct {
	parent     string // the session that delegated to this one
	root       string // the top of its chain, whose record keeps its state; "" for a session of its own
	agent      string // the agent a child session runs as ("": not known yet)
	resolved   bool   // parent and root are known (from session.created, or looked up)
	aborted    bool   // the user stopped the turn (Esc): the next idle is an interrupt
	loaded     bool   // anchors holds what the memory had
	compacted  bool   // the next request is the session's start after a compaction
	continuing bool   // the last idle was answered with a continuation
	injected   string // the continuation prompt sent
	anchors    []anchor
	standing   []string // the next system transform's context; nil: not decided
	lastText   string   // the assistant's last finished text
	assistant  map[string]bool
	warned     map[string]bool // warnings already passed on
	used       int             // tokens in the context, after the last assistant message (0: unknown)
	seen       time.Time
}

func (m *Mapper) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

func (m *Mapper) logf(format string, args ...any) {
	if m.Logf != nil {
		m.Logf(format, args...)
	}
}

// session returns the bookkeeping of a session, creating it; m.mu held.
func (m *Mapper) session(id string) *tracked {
	if m.sessions == nil {
		m.sessions = map[string]*tracked{}
	}
	t := m.sessions[id]
	if t == nil {
		if len(m.sessions) >= maxTracked {
			var oldest string
			for k, v := range m.sessions {
				if oldest == "" || v.seen.Before(m.sessions[oldest].seen) {
					oldest = k
				}
			}
			delete(m.sessions, oldest)
		}
		t = &tracked{assistant: map[string]bool{}}
		m.sessions[id] = t
	}
	t.seen = m.now()
	return t
}

// Handle answers one hook request.
func (m *Mapper) Handle(ctx context.Context, method string, params json.RawMessage) Result {
	if method == MethodConfig {
		return m.config(params)
	}
	ev, err := m.Flavor.Decode(method, params, m.now())
	if err != nil {
		m.logf("%s %s: not read: %v", m.Flavor.or().Name, orUnknown(ev.HostEvent), err)
		return Unreadable(ev.HostEvent, err)
	}
	if ev.SessionID != "" {
		m.resolve(ev, params)
	}
	if !m.before(ev, params) {
		return Result{}
	}
	if ev.HostEvent == HookName(MethodText) {
		return m.textComplete(ev, params)
	}
	if ev.Kind == event.Unknown {
		return Result{}
	}
	var r Result
	switch {
	case ev.Kind == event.PreCompact:
		r = m.compacting(ctx, ev)
	case ev.HostEvent == HookName(MethodMessages):
		r = m.messagesTransform(ctx, ev, params)
	case ev.HostEvent == HookName(MethodSystem):
		r = m.systemTransform(ctx, ev)
	default:
		r = Encode(ev, m.Run(ctx, ev))
	}
	m.after(ev, &r)
	return r
}

// compacting snapshots the session (PreCompact) and hands OpenCode's
// compaction the state block atreides would re-inject after it, so the
// summary carries it too.
func (m *Mapper) compacting(ctx context.Context, ev *event.Event) Result {
	r := Encode(ev, m.Run(ctx, ev))
	after := *ev
	after.Kind, after.Source, after.HostEvent = event.SessionStart, "compact", "experimental.session.compacting"
	after.ContextCap = MaxContext
	d := m.Run(ctx, &after)
	for _, c := range d.Context {
		if c.Source == "memory" && c.Text != "" {
			r.Context = append(r.Context, c.Text)
		}
	}
	r.Warn = append(r.Warn, d.Warnings...)
	if m.CompactionPrompt != nil {
		r.Prompt = m.CompactionPrompt(ev)
	}
	return r
}

// before applies and updates the session's bookkeeping; false means the
// event needs no answer at all.
func (m *Mapper) before(ev *event.Event, params json.RawMessage) bool {
	if ev.SessionID == "" {
		return true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	id := ev.SessionID
	t := m.session(id)
	if ev.HostEvent == "chat.message" && t.root != "" && ev.AgentType != "" {
		t.agent = ev.AgentType // a background task's child says its agent with its prompt
	}
	if t.root != "" {
		// A child session (the task tool's, a background task's), at any
		// depth: atreides's subagent, in the record of its chain's root,
		// so that the delegation limits see the whole path.
		ev.AgentID, ev.AgentType, ev.SessionID = id, host.OrDefault(ev.AgentType, host.OrDefault(t.agent, "task")), t.root
	}
	switch ev.HostEvent {
	case "session.created":
		if t.root != "" {
			ev.Kind = event.SubagentStart
		}
	case "session.error":
		t.aborted = t.aborted || ev.Interrupted
	case "session.idle":
		ev.StopHookActive, ev.LastMessage = t.continuing, t.lastText
		// The user's Esc ends the turn with an error, then an idle: the
		// idle is no stop the agent chose, so the stop gate lets it be.
		ev.Interrupted, t.aborted = t.aborted, false
		if t.root != "" {
			ev.Kind = event.SubagentStop
		}
	case "session.compacted":
		t.compacted, t.used = true, 0
	case "session.deleted":
		delete(m.sessions, id)
		if t.root != "" {
			// A child session removed (with its parent's tree, or by the
			// user) ends no session of atreides: its root goes on.
			ev.Kind = event.Unknown
		}
	case "message.updated":
		if info := createdInfo(params); info.Role == "assistant" {
			t.assistant[info.ID] = true
			if n := info.Tokens; n != nil && !info.Summary && n.contextSize() > 0 {
				t.used = n.contextSize()
			}
		}
	case "message.part.updated":
		if msg, text, ok := finishedText(params); ok && t.assistant[msg] {
			t.lastText = text
		}
	case "experimental.chat.messages.transform", "experimental.chat.system.transform":
		// The first request after a compaction is the session's start
		// after it (the state block comes back, anchored into the
		// conversation); later ones are ordinary requests.
		if t.compacted {
			ev.Source, t.compacted = "compact", false
		}
	case "chat.message":
		if t.injected != "" && strings.TrimSpace(ev.Prompt) == strings.TrimSpace(t.injected) {
			// atreides's own continuation: not a user prompt (which would
			// reset the stop gate's count of blocks in a row).
			return false
		}
		t.continuing, t.injected, t.aborted = false, "", false
		t.lastText, t.assistant = "", map[string]bool{}
	}
	// The session's own count (a child session's is its own too), for
	// the context monitor and the room left for tool output.
	ev.ContextUsed = t.used
	return true
}

// after records what the answer means for the session's next hooks.
func (m *Mapper) after(ev *event.Event, r *Result) {
	if ev.SessionID == "" || ev.HostEvent == "session.deleted" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.session(sessionKey(ev))
	if ev.HostEvent == "session.idle" {
		t.continuing, t.injected = r.Continue != "", r.Continue
	}
	// The session context is decided on every request; its warnings
	// (a missing AGENTS.md) are for the user once per session.
	var warn []string
	for _, w := range r.Warn {
		if !t.warned[w] {
			if t.warned == nil {
				t.warned = map[string]bool{}
			}
			t.warned[w] = true
			warn = append(warn, w)
		}
	}
	r.Warn = warn
}

func createdInfo(params json.RawMessage) sessionInfo {
	var p struct {
		Input struct {
			Event struct {
				Properties struct {
					Info sessionInfo `json:"info"`
				} `json:"properties"`
			} `json:"event"`
		} `json:"input"`
	}
	_ = json.Unmarshal(params, &p)
	return p.Input.Event.Properties.Info
}

// finishedText returns the text of a finished text part.
func finishedText(params json.RawMessage) (msg, text string, ok bool) {
	var p struct {
		Input struct {
			Event struct {
				Properties struct {
					Part struct {
						Type      string `json:"type"`
						MessageID string `json:"messageID"`
						Text      string `json:"text"`
						Time      struct {
							End int64 `json:"end"`
						} `json:"time"`
					} `json:"part"`
				} `json:"properties"`
			} `json:"event"`
		} `json:"input"`
	}
	if json.Unmarshal(params, &p) != nil {
		return "", "", false
	}
	part := p.Input.Event.Properties.Part
	if part.Type != "text" || part.Time.End == 0 {
		return "", "", false
	}
	return part.MessageID, host.Clip(part.Text), true
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// SessionKey is the session a request belongs to, for ordering: requests
// with the same key are answered in the order they came. Child sessions
// have keys of their own. "" when the params name no session.
func SessionKey(method string, params json.RawMessage) string {
	var p struct {
		Input struct {
			SessionID string `json:"sessionID"`
			Event     struct {
				Properties struct {
					SessionID string `json:"sessionID"`
					Info      struct {
						ID string `json:"id"`
					} `json:"info"`
				} `json:"properties"`
			} `json:"event"`
		} `json:"input"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	if method != MethodEvent {
		return p.Input.SessionID
	}
	if s := p.Input.Event.Properties.SessionID; s != "" {
		return s
	}
	return p.Input.Event.Properties.Info.ID
}
