package opencode

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// TestVariantOnChatMessage: the engine's variant reaches chat.message's
// answer (the plugin sets it on the message), and a child session's
// message reaches the engine as a subagent's, which the keyword handler
// gives none.
func TestVariantOnChatMessage(t *testing.T) {
	r := &runner{answer: map[event.Kind]*event.Decision{event.UserPrompt: {Variant: "max"}, event.PreTool: {Variant: "max"}}}
	m := &Mapper{Run: r.run}
	ctx := context.Background()
	if res := m.Handle(ctx, MethodChat, req(MethodChat, `"ulw: go"`)); res.Variant != "max" || res.Empty() {
		t.Errorf("main session's chat.message: %+v", res)
	}
	if res := m.Handle(ctx, MethodToolBefore, req(MethodToolBefore, `{"tool":"bash","sessionID":"s","callID":"k"}`)); res.Variant != "" {
		t.Errorf("a tool hook carries a variant: %+v", res)
	}
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.created","properties":{"sessionID":"c","info":{"id":"c","parentID":"s","directory":"/proj"}}}`))
	child := json.RawMessage(`{"directory":"/proj","input":{"sessionID":"c"},"output":{"message":{},"parts":[{"type":"text","text":"explore x"}]}}`)
	m.Handle(ctx, MethodChat, child)
	last := r.events[len(r.events)-1]
	if last.Kind != event.UserPrompt || !last.InSubagent() || last.SessionID != "s" {
		t.Errorf("child session's chat.message reached the engine as %+v", last)
	}
	b, _ := json.Marshal(Result{Variant: "max"})
	if string(b) != `{"variant":"max"}` {
		t.Errorf("wire form %s", b)
	}
}
