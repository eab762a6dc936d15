package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/todos"
)

// benchRun replays a decoded payload through the session handlers with the
// state encoded and decoded around every event, as the store does, so the
// numbers include what a larger state costs.
func benchRun(b *testing.B, payload string, setup func(*memLoader)) {
	benchRunIn(b, "/tmp/p", payload, setup)
}

// benchRunIn is benchRun for a project at projectDir.
func benchRunIn(b *testing.B, projectDir, payload string, setup func(*memLoader)) {
	opts := func() Options { return testOptions() }
	hs := Handlers(opts, engine.AnyKind)
	for i := range hs {
		if hs[i].Name == "stop-gate" {
			hs[i] = StopGateWith(opts, func(string) bool { return false })
		}
	}
	l := &memLoader{}
	setup(l)
	eng := engine.New(l, testEnv{b}, hs...)
	ev, err := claude.Decode([]byte(payload), projectDir, t0)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		e := *ev
		e.Time = e.Time.Add(time.Second)
		eng.Run(context.Background(), &e)
	}
}

// busySession is a session well into its work: full history, strikes,
// transitions, agent todos, and a project with todos and anchors.
func busySession(l *memLoader) {
	s := state.NewSession("s1", "claude", t0)
	for i := range history.Max {
		history.Key.Of(s).Add(history.ToolCall{Time: t0, ID: "x", Tool: "shell", Raw: "Bash", Summary: "go test ./...", Outcome: "ok"})
		_ = i
	}
	for i := range 10 {
		phase.Key.Of(s).Set([]string{"exploration", "implementation"}[i%2], "edit", t0)
		strikes.Key.Of(s).Add("shell", "cmd"+string(rune('a'+i)), strikes.StrikeError{Class: "test-failure", Excerpt: "--- FAIL", Time: t0})
	}
	agenttodos.Key.Of(s).Agent = []agenttodos.Todo{{Content: "a", Status: "pending"}, {Content: "b", Status: "completed"}}
	l.sessions = map[string][]byte{}
	l.sessions["s1"], _ = state.Encode(s)
	p := &state.Project{}
	for range 20 {
		todos.Add(p, todos.New{Title: "some todo title", Level: "task"}, t0)
		anchors.Add(p, "fact", "high", "an anchor that must survive "+string(rune('a'+len(anchors.Key.Of(p).List))), "", t0)
	}
	l.project, _ = state.Encode(p)
}

func BenchmarkPostToolUse(b *testing.B) {
	benchRun(b, `{"session_id":"s1","cwd":"/tmp/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./... 2>&1 | tail -20"},"tool_response":{"stdout":"ok  example.com/p 0.1s","stderr":""},"tool_use_id":"t1","duration_ms":900}`, busySession)
}

func BenchmarkPostToolUseFailure(b *testing.B) {
	benchRun(b, `{"session_id":"s1","cwd":"/tmp/p","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_use_id":"t1","error":"Exit code 1\n--- FAIL: TestParse (0.00s)\nFAIL"}`, busySession)
}

func BenchmarkStop(b *testing.B) {
	benchRun(b, `{"session_id":"s1","cwd":"/tmp/p","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done:\n- [x] a\n- [ ] b"}`, busySession)
}

// BenchmarkHandlersOnly is PostToolUse without the state encoding: the
// handlers' own cost.
func BenchmarkHandlersOnly(b *testing.B) {
	opts := func() Options { return testOptions() }
	ev, _ := claude.Decode([]byte(`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"sed -i s/a/b/ f.go && go test ./..."},"tool_response":{"stdout":"ok","stderr":""},"tool_use_id":"t1"}`), "/tmp/p", t0)
	st := &engine.State{Session: state.NewSession("s1", "claude", t0), Project: &state.Project{}}
	hs := Handlers(opts, engine.AnyKind)
	b.ReportAllocs()
	for b.Loop() {
		phase.Key.Of(st.Session).Current = "exploration"
		d := &event.Decision{}
		for i := range hs {
			if hs[i].Kinds == nil || contains(hs[i].Kinds, ev.Kind) {
				r, _ := hs[i].Handle(&engine.Call{Event: ev, State: st, Decision: d})
				d.Merge(hs[i].Name, r)
			}
		}
	}
}

func contains(ks []event.Kind, k event.Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// BenchmarkSessionStart is a session start in a project with CLAUDE.md and
// no AGENTS.md, with the health check's state check: what the first
// answer of every session costs here (the cli's set-up checks are measured
// in internal/cli).
func BenchmarkSessionStart(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("# Project\n- rules\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	payload := `{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"SessionStart","source":"startup"}`
	benchRunIn(b, dir, payload, busySession)
}
