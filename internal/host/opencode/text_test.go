package opencode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// TestTextComplete: the lead agent's finished text is answered with what
// Reply makes of it; unchanged text, a subagent's text and a mapper
// without Reply get no answer.
func TestTextComplete(t *testing.T) {
	r := &runner{}
	m := &Mapper{Run: r.run, Reply: func(_ *event.Event, s string) string {
		if strings.HasPrefix(s, "[P]: ") {
			return s
		}
		return "[P]: " + s
	}}
	ctx := context.Background()
	text := func(session, s string) Result {
		b, _ := json.Marshal(map[string]any{"directory": "/proj", "input": map[string]string{"sessionID": session, "messageID": "m", "partID": "p"}, "output": map[string]string{"text": s}})
		return m.Handle(ctx, MethodText, b)
	}
	if got := text("s", "Done."); got.Text == nil || *got.Text != "[P]: Done." {
		t.Fatalf("lead text: %+v", got)
	}
	if got := text("s", "[P]: Done."); !got.Empty() {
		t.Errorf("unchanged text answered: %+v", got)
	}
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.created","properties":{"info":{"id":"child","parentID":"s"}}}`))
	if got := text("child", "Found it."); !got.Empty() {
		t.Errorf("a subagent's text was rewritten: %+v", got)
	}
	if len(r.events) != 1 {
		t.Errorf("the engine ran %d times for text parts; want only for session.created", len(r.events))
	}
	m.Reply = nil
	if got := text("s", "Done."); !got.Empty() {
		t.Errorf("no Reply: %+v", got)
	}
}
