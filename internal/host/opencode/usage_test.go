package opencode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// assistantUpdate is a message.updated bus event of an assistant message
// with OpenCode's token counts.
func assistantUpdate(session, id string, input, output, reasoning, read, write int, summary bool) json.RawMessage {
	return req(MethodEvent, fmt.Sprintf(`{"type":"message.updated","properties":{"sessionID":%q,"info":{"id":%q,"role":"assistant","sessionID":%q,"summary":%v,"tokens":{"input":%d,"output":%d,"reasoning":%d,"cache":{"read":%d,"write":%d}}}}}`,
		session, id, session, summary, input, output, reasoning, read, write))
}

// TestMapperTracksTokens: the last assistant message's count (input, cache
// read and write, output; not reasoning) rides on the session's later
// events; a child session has its own; the compaction's summary message
// does not count, and after the compaction the count is unknown until
// the next answer.
func TestMapperTracksTokens(t *testing.T) {
	r := &runner{}
	m := &Mapper{Run: r.run}
	ctx := context.Background()
	tool := func(session string) event.Event {
		m.Handle(ctx, MethodToolAfter, json.RawMessage(`{"directory":"/proj","input":{"tool":"read","sessionID":"`+session+`","callID":"k","args":{"filePath":"/proj/a"}},"output":{"title":"","output":"x","metadata":{}}}`))
		return r.events[len(r.events)-1]
	}
	if ev := tool("s"); ev.ContextUsed != 0 {
		t.Errorf("before any answer: %d", ev.ContextUsed)
	}
	// While streaming the counts are 0: they do not count.
	m.Handle(ctx, MethodEvent, assistantUpdate("s", "m1", 0, 0, 0, 0, 0, false))
	m.Handle(ctx, MethodEvent, assistantUpdate("s", "m1", 1000, 200, 5000, 90000, 300, false))
	if ev := tool("s"); ev.Kind != event.PostTool || ev.ContextUsed != 91500 {
		t.Errorf("after an answer: %+v", ev.ContextUsed)
	}
	m.Handle(ctx, MethodChat, req(MethodChat, `"go on"`))
	if ev := r.events[len(r.events)-1]; ev.Kind != event.UserPrompt || ev.ContextUsed != 91500 {
		t.Errorf("prompt: kind %q used %d", ev.Kind, ev.ContextUsed)
	}

	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.created","properties":{"sessionID":"c","info":{"id":"c","parentID":"s","directory":"/proj"}}}`))
	m.Handle(ctx, MethodEvent, assistantUpdate("c", "m2", 10, 10, 0, 0, 0, false))
	if ev := tool("c"); ev.AgentID != "c" || ev.ContextUsed != 20 {
		t.Errorf("child session: agent %q used %d, want its own 20", ev.AgentID, ev.ContextUsed)
	}

	m.Handle(ctx, MethodEvent, assistantUpdate("s", "m3", 150000, 2000, 0, 0, 0, true))
	if ev := tool("s"); ev.ContextUsed != 91500 {
		t.Errorf("the summary message counted: %d", ev.ContextUsed)
	}
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.compacted","properties":{"sessionID":"s"}}`))
	if ev := tool("s"); ev.ContextUsed != 0 {
		t.Errorf("after the compaction: %d, want unknown", ev.ContextUsed)
	}
}

// TestMapperTracksCapturedTokens: the captured step's counts, as OpenCode
// 1.18.33 sent them on message.updated.
func TestMapperTracksCapturedTokens(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "hosttest", "testdata", "opencode-samples", "events", "message.part.updated--step-finish.json"))
	if err != nil {
		t.Fatal(err)
	}
	var captured struct {
		Event struct {
			Properties struct {
				Part struct {
					MessageID string        `json:"messageID"`
					SessionID string        `json:"sessionID"`
					Tokens    messageTokens `json:"tokens"`
				} `json:"part"`
			} `json:"properties"`
		} `json:"event"`
	}
	if err := json.Unmarshal(b, &captured); err != nil {
		t.Fatal(err)
	}
	p := captured.Event.Properties.Part
	r := &runner{}
	m := &Mapper{Run: r.run}
	ctx := context.Background()
	tk := p.Tokens
	m.Handle(ctx, MethodEvent, assistantUpdate(p.SessionID, p.MessageID, tk.Input, tk.Output, 0, tk.Cache.Read, tk.Cache.Write, false))
	m.Handle(ctx, MethodChat, json.RawMessage(`{"directory":"/proj","input":{"sessionID":"`+p.SessionID+`"},"output":{"parts":[{"type":"text","text":"hi"}]}}`))
	if ev := r.events[len(r.events)-1]; ev.ContextUsed != 120 {
		t.Errorf("used %d, want the captured 100 in + 20 out", ev.ContextUsed)
	}
}

// TestCompactionPrompt: the configured prompt goes to the compaction
// hook's output.prompt; none leaves OpenCode's own.
func TestCompactionPrompt(t *testing.T) {
	ctx := context.Background()
	m := &Mapper{Run: (&runner{}).run}
	if r := m.Handle(ctx, MethodCompacting, req(MethodCompacting, `{"sessionID":"s"}`)); r.Prompt != "" {
		t.Errorf("no prompt configured: %q", r.Prompt)
	}
	m.CompactionPrompt = func(ev *event.Event) string {
		if ev.SessionID != "s" {
			t.Errorf("session %q", ev.SessionID)
		}
		return "Summarize for a continuation."
	}
	r := m.Handle(ctx, MethodCompacting, req(MethodCompacting, `{"sessionID":"s"}`))
	if r.Prompt != "Summarize for a continuation." || r.Empty() {
		t.Errorf("prompt %q", r.Prompt)
	}
	if b, _ := json.Marshal(r); !json.Valid(b) || !containsKey(b, "prompt") {
		t.Errorf("encoded %s", b)
	}
}

func containsKey(b []byte, key string) bool {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(b, &m)
	_, ok := m[key]
	return ok
}
