package opencode

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"slices"
	"strconv"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/event"
)

// maxAnchors bounds the context a session keeps re-adding; the oldest goes
// first (it is also the first to leave the model's window).
const maxAnchors = 64

// anchor is context delivered into the conversation. OpenCode does not keep
// what a messages transform adds, so the mapper adds it again, to the same
// message, in every later request of the session: the model sees the
// conversation as if it had been kept there (as Claude Code keeps a hook's
// context), and earlier messages never change, which keeps the provider's
// prompt cache valid. The list is kept in the store too ([Memory]), so a
// restarted serve goes on adding it.
type anchor = anchors.PlacedAt

// listed is what the plugin sends of the request's messages: their ids and
// roles, in order, not their content.
type listed struct {
	ID   string `json:"id"`
	Role string `json:"role"`
}

// requestMessages reads the message list of a messages.transform request.
func requestMessages(params json.RawMessage) []listed {
	var p struct {
		Output struct {
			Messages []listed `json:"messages"`
		} `json:"output"`
	}
	_ = json.Unmarshal(params, &p) // a list that does not decode anchors nothing
	return p.Output.Messages
}

// anchorFor is the message new context is added to: the latest user
// message (the context belongs to the turn it arrived in), else the
// latest message.
func anchorFor(msgs []listed) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && msgs[i].ID != "" {
			return msgs[i].ID
		}
	}
	if len(msgs) > 0 {
		return msgs[len(msgs)-1].ID
	}
	return ""
}

// messagesTransform answers the transform before a model request: the
// engine decides the session's start context (standing context is kept
// for the system transform of the same request, which comes next) and
// what waits for a carrier, which is anchored to the turn's message; every
// anchor of the session whose message is still in the request is added
// again.
func (m *Mapper) messagesTransform(ctx context.Context, ev *event.Event, params json.RawMessage) Result {
	msgs := requestMessages(params)
	d := m.Run(ctx, ev)
	r := Result{Warn: d.Warnings}
	var standing []event.Entry
	for _, e := range d.Context {
		if e.Standing {
			standing = append(standing, e)
		}
	}
	key := sessionKey(ev)
	m.loadPlaced(ev, key)
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.session(key)
	before := slices.Clone(t.anchors)
	t.standing = []string{} // decided: the system transform asks no more
	if s := event.JoinEntries(standing); s != "" {
		t.standing = []string{s}
	}
	at := anchorFor(msgs)
	for _, e := range d.Context {
		if !e.Standing && at != "" {
			t.anchor(at, e)
		}
	}
	r.Inject = t.injections(msgs)
	if m.Memory != nil && !slices.Equal(before, t.anchors) {
		m.Memory.SavePlaced(dirOf(ev), key, slices.Clone(t.anchors))
	}
	return r
}

// loadPlaced reads what the memory kept of the context placed in the
// conversation, once per process (before the mapper placed any).
func (m *Mapper) loadPlaced(ev *event.Event, key string) {
	m.mu.Lock()
	done := m.session(key).loaded
	m.mu.Unlock()
	if done || m.Memory == nil {
		return
	}
	list := m.Memory.Placed(dirOf(ev), key)
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.session(key); !t.loaded {
		t.loaded = true
		t.anchors = append(slices.Clone(list), t.anchors...)
	}
}

// systemTransform answers a request's system transform with the standing
// context its messages transform decided, or, when there was none (an
// older OpenCode, a request without one), by running the engine.
func (m *Mapper) systemTransform(ctx context.Context, ev *event.Event) Result {
	m.mu.Lock()
	t := m.session(sessionKey(ev))
	standing := t.standing
	t.standing = nil
	m.mu.Unlock()
	if standing != nil {
		return Result{System: standing}
	}
	return Encode(ev, m.Run(ctx, ev))
}

// anchor adds an entry at message, unless the same entry with the same
// text is anchored already (context a start re-registers at every request
// is said once).
func (t *tracked) anchor(message string, e event.Entry) {
	if e.Text == "" || slices.ContainsFunc(t.anchors, func(a anchor) bool { return a.Entry == e.Key() && a.Text == e.Text }) {
		return
	}
	h := fnv.New64a()
	h.Write([]byte(message + "\x00" + e.Key() + "\x00" + e.Text))
	t.anchors = append(t.anchors, anchor{Message: message, Part: "prt_atreides" + strconv.FormatUint(h.Sum64(), 36), Entry: e.Key(), Text: e.Text})
	if over := len(t.anchors) - maxAnchors; over > 0 {
		t.anchors = slices.Delete(t.anchors, 0, over)
	}
}

// injections are the anchors whose message is in the request; anchors of
// messages no longer sent (compacted away) are forgotten.
func (t *tracked) injections(msgs []listed) []Injection {
	in := make(map[string]bool, len(msgs))
	for _, m := range msgs {
		in[m.ID] = true
	}
	t.anchors = slices.DeleteFunc(t.anchors, func(a anchor) bool { return !in[a.Message] })
	var out []Injection
	for _, a := range t.anchors {
		out = append(out, Injection{MessageID: a.Message, ID: a.Part, Text: a.Text})
	}
	return out
}

// sessionKey is the key the mapper tracks an event's agent under: a child
// session's own id, else the session's.
func sessionKey(ev *event.Event) string {
	if ev.AgentID != "" {
		return ev.AgentID
	}
	return ev.SessionID
}
