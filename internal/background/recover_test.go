package background

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/state"
)

func TestRecoverLostRunners(t *testing.T) {
	self := os.Getpid()
	start, ok := ProcStart(self)
	if !ok {
		t.Fatal("no start time for this process")
	}
	var b bgtasks.Background
	for range 5 {
		Add(&b, bgtasks.Task{Key: "k", Runner: "process"}, t0)
	}
	Schedule(&b, Limits{Default: 4}, t0)
	b.Tasks[0].PID, b.Tasks[0].PIDStart = self, start     // alive
	b.Tasks[1].PID, b.Tasks[1].PIDStart = self, start+999 // pid reused by another process
	b.Tasks[2].PID = 1 << 22                              // dead (above pid_max)
	// bg-4 never recorded a supervisor: lost only after the grace.
	now := t0.Add(time.Second)
	lost := Recover(&b, ProcAlive, now)
	if len(lost) != 2 || lost[0] != "bg-2" || lost[1] != "bg-3" {
		t.Fatalf("lost = %v, want bg-2 bg-3", lost)
	}
	if got := Recover(&b, ProcAlive, now.Add(startGrace)); len(got) != 1 || got[0] != "bg-4" {
		t.Fatalf("after the grace lost = %v, want bg-4", got)
	}
	// The slots are released: the queued task starts.
	if got := Schedule(&b, Limits{Default: 4}, now); len(got) != 1 || got[0] != "bg-5" {
		t.Fatalf("scheduled %v, want bg-5", got)
	}
	if b.Tasks[1].Status != Failed || b.Tasks[1].Error == "" {
		t.Fatalf("reused pid task = %+v", b.Tasks[1])
	}
}

func TestParseStartTime(t *testing.T) {
	line := "42 (a) b) c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 123456 19"
	if n, ok := parseStartTime(line); !ok || n != 123456 {
		t.Fatalf("got %d %v", n, ok)
	}
	if _, ok := parseStartTime("42 (x) S 1"); ok {
		t.Fatal("a short line parsed")
	}
}

func FuzzParseStartTime(f *testing.F) {
	f.Add("1 (init) S 0 1 1 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 77 1 2")
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := parseStartTime(s)
		if !ok && n != 0 {
			t.Fatalf("failure with a value %d", n)
		}
	})
}

func TestParseAnswer(t *testing.T) {
	for _, c := range []struct{ name, out, text, session, err string }{
		{"claude", `{"type":"result","subtype":"success","is_error":false,"result":"hi","session_id":"u1"}`, "hi", "u1", ""},
		{"claude error", `{"type":"result","subtype":"error_max_turns","is_error":true,"result":"","session_id":"u1"}`, "", "u1", "error_max_turns"},
		{"gemini", `{"session_id":"g1","response":"ok","stats":{}}`, "ok", "g1", ""},
		{"gemini error", `{"error":{"type":"x","message":"quota"}}`, "", "", "quota"},
		{"codex", "{\"type\":\"thread.started\",\"thread_id\":\"c1\"}\n{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"first\"}}\n{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"last\"}}\n{\"type\":\"turn.completed\"}", "last", "c1", ""},
		{"codex failed", "{\"type\":\"thread.started\",\"thread_id\":\"c1\"}\n{\"type\":\"turn.failed\",\"error\":{\"message\":\"boom\"}}", "", "c1", "boom"},
		{"cline", `{"type":"hook_event","hookEventName":"agent_end","taskId":"t"}` + "\n" + `{"type":"run_result","finishReason":"completed","text":"done"}`, "done", "", ""},
		{"cline aborted", `{"type":"run_result","finishReason":"aborted","text":""}`, "", "", "the run ended aborted"},
		{"text", "plain answer\n", "plain answer", "", ""},
	} {
		a := ParseAnswer([]byte(c.out))
		if a.Text != c.text || a.Session != c.session || a.Error != c.err {
			t.Errorf("%s: %+v", c.name, a)
		}
	}
}

// The recorded outputs are real runs of the pinned CLIs against the e2e
// fake models (test/e2e TestBackgroundHeadless): codex exec --json 0.169.0,
// which reports a warning as an item of type error that must not fail the
// task, and gemini -p --output-format json 0.61.0.
func TestParseAnswerRecorded(t *testing.T) {
	for _, c := range []struct{ file, text, session string }{
		{"codex-exec-json.jsonl", "HEADLESS-ANSWER-5c1", "01a20b99-79e7-76b2-b818-ea2a2b91d177"},
		{"gemini-p-json.json", "HEADLESS-ANSWER-5c1", "351d2b85-b669-4685-ba52-bcd4912f3c4a"},
		{"cline-json.jsonl", "done", ""}, // cline --json 3.0.65, against test/e2e/fakeopenaichat
	} {
		out, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if a := ParseAnswer(out); a.Text != c.text || a.Session != c.session || a.Error != "" {
			t.Errorf("%s: %+v", c.file, a)
		}
	}
}

func FuzzParseAnswer(f *testing.F) {
	f.Add([]byte(`{"type":"result","result":"x"}`))
	f.Add([]byte("{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"t\"}}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a := ParseAnswer(b)
		// Property: text that is not JSON comes back as it is (trimmed).
		if len(b) > 0 && b[0] != '{' && a.Error == "" && a.Session == "" && len(a.Text) > len(b) {
			t.Fatalf("answer longer than the output: %q", a.Text)
		}
	})
}

type env struct{}

func (env) Logf(string, ...any) {}
func (env) Now() time.Time      { return t0 }

func call(b bgtasks.Background, kind event.Kind) (*engine.Call, *state.Project) {
	p := &state.Project{}
	*bgtasks.Key.Of(p) = b
	ev := &event.Event{Kind: kind, SessionID: "p", Host: claude.Host, Facts: &claude.Facts, Time: t0.Add(time.Minute)}
	return &engine.Call{Event: ev, State: &engine.State{Project: p, Session: state.NewSession("p", "claude", t0)}, Decision: &event.Decision{}, Env: env{}}, p
}

func TestStopGateAndNotification(t *testing.T) {
	o := func() Options {
		return Options{Limits: Limits{Default: 1}, Notify: true, MaxBlocks: 2}
	}
	var b bgtasks.Background
	Add(&b, bgtasks.Task{Parent: "p", Key: "k", Agent: "explore", Description: "look"}, t0)
	Add(&b, bgtasks.Task{Parent: "p", Key: "k", Agent: "build"}, t0)
	Schedule(&b, Limits{Default: 1}, t0)
	h := Handler("/nonexistent", o)
	for i := range 3 {
		c, p := call(b, event.Stop)
		res, err := h.Handle(c)
		if err != nil {
			t.Fatal(err)
		}
		b = *bgtasks.Key.Of(p)
		if want := i < 2; res.Block != want {
			t.Fatalf("stop %d: block %v, want %v (%s)", i, res.Block, want, res.BlockReason)
		}
		if i == 0 && (!contains(res.BlockReason, "bg-1 (explore): running") || !contains(res.BlockReason, "position 1") || !contains(res.BlockReason, "mcp__atreides__background_output")) {
			t.Fatalf("reason: %s", res.BlockReason)
		}
	}
	Finish(&b, "bg-1", Completed, "found it\n\nmore", "", t0)
	c, p := call(b, event.PostTool)
	if res, _ := h.Handle(c); len(res.Context) != 0 {
		t.Fatalf("told while bg-2 is pending: %v", res.Context)
	}
	b = *bgtasks.Key.Of(p)
	Schedule(&b, Limits{Default: 1}, t0)
	Finish(&b, "bg-2", Failed, "", "exited 1", t0)
	c, p = call(b, event.PostTool)
	res, _ := h.Handle(c)
	if len(res.Context) != 1 || !contains(res.Context[0].Text, "bg-1 (explore) completed") || !contains(res.Context[0].Text, "result: found it") || !contains(res.Context[0].Text, "bg-2 (build) failed") {
		t.Fatalf("notification: %+v", res.Context)
	}
	c, _ = call(*bgtasks.Key.Of(p), event.PostTool)
	if res, _ := h.Handle(c); len(res.Context) != 0 {
		t.Fatal("told twice")
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// BenchmarkHandlerNoTasks is the handler's cost for a session that
// launched nothing in a project with none; BenchmarkHandlerOthers with
// the most tasks (bgtasks.Max) of other sessions.
func BenchmarkHandlerNoTasks(b *testing.B) {
	h := Handler("", func() Options { return Options{} })
	c, _ := call(bgtasks.Background{}, event.PostTool)
	for b.Loop() {
		_, _ = h.Handle(c)
	}
}

func BenchmarkHandlerOthers(b *testing.B) {
	var bg bgtasks.Background
	for range bgtasks.Max {
		Add(&bg, bgtasks.Task{Parent: "other", Key: "k"}, t0)
	}
	h := Handler("", func() Options { return Options{} })
	c, _ := call(bg, event.PostTool)
	for b.Loop() {
		_, _ = h.Handle(c)
	}
}

// BenchmarkDecodeMax is the cost the background group adds to a hook's
// load when the project holds the most tasks it keeps
// (bgtasks.Max; an empty group costs nothing: its section is
// absent).
func BenchmarkDecodeMax(b *testing.B) {
	p := &state.Project{Version: state.ProjectVersion}
	for i := range bgtasks.Max {
		Add(bgtasks.Key.Of(p), bgtasks.Task{Parent: "other", Key: "explore", Agent: "explore", Host: "claude", Runner: "process",
			Description: "a task", Prompt: strings.Repeat("p", 200), Result: strings.Repeat("r", 600)}, t0.Add(time.Duration(i)))
	}
	l, err := state.LoadBytes(nil, nil, "s", "claude", t0, state.AllGroups)
	if err != nil {
		b.Fatal(err)
	}
	*bgtasks.Key.Of(l.Project) = *bgtasks.Key.Of(p)
	_, rec, err := l.Encode()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(rec)), "record-bytes")
	for b.Loop() {
		if _, err := state.LoadBytes(nil, rec, "s", "claude", t0, bgtasks.Key.Group()); err != nil {
			b.Fatal(err)
		}
	}
}

// TestKeyOf: by provider, tasks queue by the host's model provider (its
// facts), by the host's name when it has none; else by agent.
func TestKeyOf(t *testing.T) {
	for _, tc := range []struct {
		by    string
		facts *event.HostFacts
		want  string
	}{
		{"provider", &claude.Facts, "anthropic"},
		{"provider", &event.HostFacts{}, "h"},
		{"provider", nil, "h"},
		{"agent", &claude.Facts, "explore"},
	} {
		if got := (Options{KeyBy: tc.by}).KeyOf(tc.facts, "h", "explore"); got != tc.want {
			t.Errorf("by %s with %+v: %q, want %q", tc.by, tc.facts, got, tc.want)
		}
	}
}
