package delegation

import (
	"fmt"
	"github.com/atreides-dev/atreides/internal/config"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/subagents"
)

// BenchmarkNonDelegationEvent is the registry handler's cost on an event
// that is no delegation (the common case: every tool call of every agent)
// in a session with a dozen subagents on record, two still running within
// their deadline. The state is already loaded, as the engine hands it over.
func BenchmarkNonDelegationEvent(b *testing.B) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	sess := &state.Session{ID: "s1"}
	for i := range 12 {
		d := subagents.Delegation{ID: fmt.Sprint("a", i), Type: "Explore", Depth: 1, Path: []string{MainAgent, "Explore"}, Started: t0, Deadline: t0.Add(30 * time.Minute)}
		if i < 10 {
			d.Stopped, d.Outcome = t0.Add(time.Minute), "ok"
		}
		subagents.Key.Of(sess).Agents = append(subagents.Key.Of(sess).Agents, d)
	}
	e := &env{now: t0.Add(10 * time.Minute)}
	o := FromConfig(config.Builtin())
	h := Handlers(func() Options { return o })[1]
	ev := &event.Event{Kind: event.PreTool, Host: "claude", SessionID: "s1", Tool: event.Tool{Name: event.Read}}
	c := &engine.Call{Event: ev, State: &engine.State{Session: sess, Project: &state.Project{}}, Decision: &event.Decision{}, Env: e}
	b.ReportAllocs()
	for b.Loop() {
		if r, _ := h.Handle(c); !r.Empty() {
			b.Fatal(r)
		}
	}
}

// TestNonDelegationEventLoadsNoOptions: the registry handler runs on every
// event, but only a delegation, a subagent's start or its stop asks for
// the options (which parse the configuration in a hook).
func TestNonDelegationEventLoadsNoOptions(t *testing.T) {
	sess := &state.Session{ID: "s1"}
	h := Handlers(func() Options { t.Fatal("options asked for"); return Options{} })[1]
	for _, k := range []event.Kind{event.PreTool, event.PostTool, event.UserPrompt, event.Stop} {
		ev := &event.Event{Kind: k, Host: "claude", SessionID: "s1", Tool: event.Tool{Name: event.Read}}
		c := &engine.Call{Event: ev, State: &engine.State{Session: sess, Project: &state.Project{}}, Decision: &event.Decision{}, Env: &env{}}
		if r, _ := h.Handle(c); !r.Empty() {
			t.Errorf("%s: %+v", k, r)
		}
	}
}
