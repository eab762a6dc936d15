package opencode

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/store"
)

type quietEnv struct{}

func (quietEnv) Logf(string, ...any) {}
func (quietEnv) Now() time.Time      { return time.Now() }

// messagesReq is a messages.transform request over messages given as
// "id:role" words.
func messagesReq(session string, msgs ...string) json.RawMessage {
	var list []map[string]string
	for _, m := range msgs {
		id, role, _ := strings.Cut(m, ":")
		list = append(list, map[string]string{"id": id, "role": role})
	}
	b, _ := json.Marshal(map[string]any{"directory": "/proj", "input": map[string]string{"sessionID": session}, "output": map[string]any{"messages": list}})
	return b
}

// TestMessagesTransform runs the mapper on the real engine and store: a
// prompt's context waits (chat.message carries none) and is added to that
// prompt's message at the next request, as a part with a stable id, and
// again, unchanged and once, at every later request while the message is
// sent; standing context goes to the system prompt of the same request,
// every time; a new turn's context is anchored to the new message without
// touching the old one; a compaction that drops a message drops its parts.
func TestMessagesTransform(t *testing.T) {
	turn := 0
	h := engine.Handler{Name: "t", Priority: engine.Normal, Handle: func(c *engine.Call) (event.Result, error) {
		switch c.Event.Kind {
		case event.UserPrompt:
			turn++
			return event.Result{Context: event.Note("keyword", "mode", event.High, "ULTRAWORK MODE "+string(rune('0'+turn)))}, nil
		case event.SessionStart:
			e := event.Note("session", "start", event.High, "identity")
			e[0].Standing = true
			return event.Result{Context: e}, nil
		}
		return event.Result{}, nil
	}}
	eng := engine.New(engine.StoreLoader{Store: store.Open(filepath.Join(t.TempDir(), ".atreides"))}, quietEnv{}, h)
	m := &Mapper{Run: eng.Run}
	ctx := context.Background()
	request := func(msgs ...string) (inject []Injection, system []string) {
		r := m.Handle(ctx, MethodMessages, messagesReq("s", msgs...))
		sys := m.Handle(ctx, MethodSystem, req(MethodSystem, `{"sessionID":"s"}`))
		return r.Inject, sys.System
	}

	m.Handle(ctx, MethodChat, req(MethodChat, `"ultrawork: build it"`))
	in1, sys := request("u1:user")
	if len(in1) != 1 || in1[0].MessageID != "u1" || in1[0].Text != "ULTRAWORK MODE 1" || !strings.HasPrefix(in1[0].ID, "prt_atreides") {
		t.Fatalf("first request: %+v", in1)
	}
	if len(sys) != 1 || sys[0] != "identity" {
		t.Fatalf("system %q", sys)
	}
	in2, sys := request("u1:user", "a1:assistant")
	if len(in2) != 1 || in2[0] != in1[0] || len(sys) != 1 {
		t.Fatalf("second request of the turn: %+v, system %q", in2, sys)
	}

	m.Handle(ctx, MethodChat, req(MethodChat, `"ulw again"`))
	in3, _ := request("u1:user", "a1:assistant", "u2:user")
	if len(in3) != 2 || in3[0] != in1[0] || in3[1].MessageID != "u2" || in3[1].Text != "ULTRAWORK MODE 2" {
		t.Fatalf("second turn: %+v", in3)
	}
	in4, _ := request("sum:assistant", "u2:user")
	if len(in4) != 1 || in4[0] != in3[1] {
		t.Fatalf("after u1 was compacted away: %+v", in4)
	}
}
