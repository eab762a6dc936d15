package opencode

import (
	"context"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/subagents"
)

// mapMemory is a Memory in maps, counting its reads.
type mapMemory struct {
	links  subagents.Links
	placed anchors.Placed
	reads  int
}

func (mm *mapMemory) Link(_, child string) (subagents.Link, bool) {
	mm.reads++
	return mm.links.Find(child)
}
func (mm *mapMemory) SaveLink(_ string, l subagents.Link) { mm.links.Add(l) }
func (mm *mapMemory) Placed(_, key string) []anchors.PlacedAt {
	mm.reads++
	return mm.placed.Of(key)
}
func (mm *mapMemory) SavePlaced(_, key string, list []anchors.PlacedAt) {
	mm.placed.Set(key, list, time.Time{})
}

// TestMapperGrandchild: a child's child is an agent of the root session,
// of the agent type OpenCode created it for (its info's agent, else its
// title's "(@agent subagent)"); a new mapper over the same memory knows it
// too, and looks a session up once.
func TestMapperGrandchild(t *testing.T) {
	mem := &mapMemory{}
	r := &runner{}
	m := &Mapper{Run: r.run, Memory: mem}
	ctx := context.Background()
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.created","properties":{"sessionID":"a","info":{"id":"a","directory":"/proj"}}}`))
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.created","properties":{"sessionID":"b","info":{"id":"b","parentID":"a","agent":"general"}}}`))
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.created","properties":{"sessionID":"c","info":{"id":"c","parentID":"b","title":"look (@explore subagent)"}}}`))
	m.Handle(ctx, MethodToolBefore, req(MethodToolBefore, `{"tool":"bash","sessionID":"c","callID":"k"}`))
	m2 := &Mapper{Run: r.run, Memory: mem}
	m2.Handle(ctx, MethodToolBefore, req(MethodToolBefore, `{"tool":"bash","sessionID":"c","callID":"k2"}`))
	reads := mem.reads
	m2.Handle(ctx, MethodToolBefore, req(MethodToolBefore, `{"tool":"bash","sessionID":"c","callID":"k3"}`))
	want := []struct {
		kind             event.Kind
		session, id, typ string
	}{
		{event.SessionStart, "a", "", ""},
		{event.SubagentStart, "a", "b", "general"},
		{event.SubagentStart, "a", "c", "explore"},
		{event.PreTool, "a", "c", "explore"},
		{event.PreTool, "a", "c", "explore"},
		{event.PreTool, "a", "c", "explore"},
	}
	if len(r.events) != len(want) {
		t.Fatalf("events %+v", r.events)
	}
	for i, w := range want {
		if e := r.events[i]; e.Kind != w.kind || e.SessionID != w.session || e.AgentID != w.id || e.AgentType != w.typ {
			t.Errorf("event %d: %q session %q agent %q (%s), want %+v", i, e.Kind, e.SessionID, e.AgentID, e.AgentType, w)
		}
	}
	if mem.reads != reads {
		t.Errorf("the memory was read again for a session already known")
	}
	if s, a := m2.Caller("/proj", "c"); s != "a" || a != "c" {
		t.Errorf("Caller(c) = %q, %q", s, a)
	}
}

// TestMapperEscInterrupts: the idle that follows session.error
// MessageAbortedError is an interrupted stop; another error, or the idle
// after the next prompt, is not.
func TestMapperEscInterrupts(t *testing.T) {
	r := &runner{}
	m := &Mapper{Run: r.run}
	ctx := context.Background()
	idle := req(MethodEvent, `{"type":"session.idle","properties":{"sessionID":"s"}}`)
	lastStop := func() event.Event {
		t.Helper()
		e := r.events[len(r.events)-1]
		if e.Kind != event.Stop {
			t.Fatalf("last event %q", e.Kind)
		}
		return e
	}
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.error","properties":{"sessionID":"s","error":{"name":"APIError","data":{"message":"boom"}}}}`))
	m.Handle(ctx, MethodEvent, idle)
	if lastStop().Interrupted {
		t.Error("an API error is an interrupt")
	}
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.error","properties":{"sessionID":"s","error":{"name":"MessageAbortedError","data":{"message":"The operation was aborted."}}}}`))
	m.Handle(ctx, MethodEvent, idle)
	if !lastStop().Interrupted {
		t.Error("the idle after Esc is not an interrupt")
	}
	m.Handle(ctx, MethodChat, req(MethodChat, `"go on"`))
	m.Handle(ctx, MethodEvent, idle)
	if lastStop().Interrupted {
		t.Error("the idle after the next prompt is an interrupt")
	}
}

// TestMapperChildDeletedEndsNothing: a child session's deletion is no end
// of its root session; the root's own deletion is.
func TestMapperChildDeletedEndsNothing(t *testing.T) {
	r := &runner{}
	m := &Mapper{Run: r.run}
	ctx := context.Background()
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.created","properties":{"sessionID":"b","info":{"id":"b","parentID":"a","agent":"general"}}}`))
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.deleted","properties":{"sessionID":"b","info":{"id":"b"}}}`))
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.deleted","properties":{"sessionID":"a","info":{"id":"a"}}}`))
	var ends []string
	for _, e := range r.events {
		if e.Kind == event.SessionEnd {
			ends = append(ends, e.SessionID+"/"+e.AgentID)
		}
	}
	if len(ends) != 1 || ends[0] != "a/" {
		t.Errorf("session ends %q, want only a's", ends)
	}
}
