package background

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
)

// stream is a recorded sequence of observations of one child session:
// one JSON object per line, its "ms" the time since the child's launch.
type streamStep struct {
	Ms int64 `json:"ms"`
	Observation
}

func readStream(t *testing.T, name string) []streamStep {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []streamStep
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		var s streamStep
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, s)
	}
	return out
}

// TestObserveStreams replays recorded child sessions through Observe and
// checks the step at which each is decided, and how.
func TestObserveStreams(t *testing.T) {
	tm := Timing{Stable: 1500 * time.Millisecond, Stale: 20 * time.Second}
	for _, tc := range []struct {
		name   string
		file   string
		timing Timing
		status string
		result string // a part of the result
	}{
		{name: "completes once stable", file: "opencode-child-answer.jsonl", timing: tm, status: Completed, result: "CHILD-DONE"},
		{name: "idle before the first answer is not done", file: "opencode-child-early-idle.jsonl", timing: tm, status: Completed, result: "CHILD-DONE"},
		{name: "a tool round trip is not the end", file: "opencode-child-tool.jsonl", timing: tm, status: Completed, result: "after the tool"},
		{name: "open todos keep it running, then stale", file: "opencode-child-todos.jsonl", timing: tm, status: Failed, result: "todos"},
		{name: "no progress is stale", file: "opencode-child-hung.jsonl", timing: tm, status: Failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steps := readStream(t, tc.file)
			start := t0
			task := &bgtasks.Task{ID: "bg-1", Status: Running, Child: steps[0].Child}
			var v Verdict
			at := int64(-1)
			for _, s := range steps {
				if v = Observe(task, s.Observation, tc.timing, start.Add(time.Duration(s.Ms)*time.Millisecond)); v.Status != "" {
					at = s.Ms
					break
				}
			}
			if v.Status != tc.status || !strings.Contains(v.Result, tc.result) {
				t.Fatalf("verdict %+v at %d ms, want %s with %q", v, at, tc.status, tc.result)
			}
		})
	}
}

func TestObserveRules(t *testing.T) {
	tm := Timing{Stable: 2 * time.Second, Stale: time.Minute}
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	for _, tc := range []struct {
		name  string
		steps []Observation
		times []float64
		want  string
	}{
		{"idle without answer never completes", []Observation{{Status: "idle", Messages: 1}, {Status: "idle", Messages: 1}}, []float64{0, 30}, ""},
		{"idle answered but not yet stable", []Observation{{Status: "busy", Messages: 1}, {Status: "idle", Messages: 2, Answered: true}}, []float64{0, 1}, ""},
		{"idle answered and stable", []Observation{{Status: "idle", Messages: 2, Answered: true}, {Status: "idle", Messages: 2, Answered: true}}, []float64{0, 2}, Completed},
		{"a new message restarts stability", []Observation{{Status: "idle", Messages: 2, Answered: true}, {Status: "idle", Messages: 4, Answered: true}}, []float64{0, 2.5}, ""},
		{"open todos are not complete", []Observation{{Status: "idle", Messages: 2, Answered: true, OpenTodos: 1}, {Status: "idle", Messages: 2, Answered: true, OpenTodos: 1}}, []float64{0, 10}, ""},
		{"busy with no progress goes stale", []Observation{{Status: "busy", Messages: 2}, {Status: "busy", Messages: 2}}, []float64{0, 61}, Failed},
		{"busy with progress is not stale", []Observation{{Status: "busy", Messages: 2}, {Status: "busy", Messages: 3}}, []float64{0, 61}, ""},
		{"a missing child fails", []Observation{{Status: "missing"}}, []float64{0}, Failed},
		{"an idle child with an error fails", []Observation{{Status: "idle", Messages: 2, Error: "APIError"}}, []float64{0}, Failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			task := &bgtasks.Task{ID: "bg-1", Status: Running}
			var v Verdict
			for i, o := range tc.steps {
				v = Observe(task, o, tm, at(tc.times[i]))
			}
			if v.Status != tc.want {
				t.Fatalf("verdict %+v, want %q", v, tc.want)
			}
		})
	}
}

func TestTickLaunchesInTurn(t *testing.T) {
	var b bgtasks.Background
	for _, p := range []string{"one", "two"} {
		Add(&b, bgtasks.Task{Parent: "ses_p", Runner: RunnerOpenCode, Key: "k", Prompt: p, Agent: "explore"}, t0)
	}
	Add(&b, bgtasks.Task{Parent: "ses_q", Runner: "process", Key: "k", Prompt: "three"}, t0)
	l, tm := Limits{Default: 1}, Timing{Stable: time.Second, Stale: time.Minute}
	Schedule(&b, l, t0) // what background_task does when it queues

	out := Tick(&b, TickIn{}, l, tm, t0)
	if len(out.Launch) != 1 || out.Launch[0].Task != "bg-1" || out.Launch[0].Prompt != "one" || out.Launch[0].Agent != "explore" || !out.Pending {
		t.Fatalf("first tick = %+v", out)
	}
	if again := Tick(&b, TickIn{}, l, tm, t0.Add(time.Second)); len(again.Launch) != 0 {
		t.Fatalf("a task handed out was handed out again: %+v", again)
	}
	out = Tick(&b, TickIn{Launched: []Launched{{Task: "bg-1", Child: "ses_c1"}}}, l, tm, t0.Add(2*time.Second))
	if !slices.Equal(out.Watch, []Child{{Task: "bg-1", Child: "ses_c1"}}) || len(out.Launch) != 0 {
		t.Fatalf("after the launch report = %+v", out)
	}
	obs := Observation{Task: "bg-1", Child: "ses_c1", Status: "idle", Messages: 2, Answered: true, Last: "ONE DONE"}
	Tick(&b, TickIn{Observed: []Observation{obs}}, l, tm, t0.Add(3*time.Second))
	out = Tick(&b, TickIn{Observed: []Observation{obs}}, l, tm, t0.Add(5*time.Second))
	if b.Task("bg-1").Status != Completed || b.Task("bg-1").Result != "ONE DONE" {
		t.Fatalf("bg-1 = %+v", b.Task("bg-1"))
	}
	if len(out.Launch) != 1 || out.Launch[0].Task != "bg-2" || !slices.Equal(out.Ended, []string{"bg-1"}) {
		t.Fatalf("the next task did not start when the slot freed: %+v", out)
	}
	// bg-3 (another runner, same key) waits behind bg-2 and is handed to
	// the caller, not to the plugin, when bg-2 ends.
	Tick(&b, TickIn{Launched: []Launched{{Task: "bg-2", Error: "no such agent"}}}, l, tm, t0.Add(6*time.Second))
	if b.Task("bg-2").Status != Failed || b.Task("bg-3").Status != Running {
		t.Fatalf("bg-2 %s, bg-3 %s", b.Task("bg-2").Status, b.Task("bg-3").Status)
	}
	if out := Tick(&b, TickIn{}, l, tm, t0.Add(7*time.Second)); out.Pending {
		t.Fatalf("no OpenCode task is pending, yet %+v", out)
	}
}

func TestTickAbortsCancelledAndLost(t *testing.T) {
	var b bgtasks.Background
	Add(&b, bgtasks.Task{Parent: "p", Runner: RunnerOpenCode, Key: "k"}, t0)
	Add(&b, bgtasks.Task{Parent: "p", Runner: RunnerOpenCode, Key: "k"}, t0)
	l, tm := Limits{Default: 5}, Timing{Stable: time.Second, Stale: time.Minute}
	Tick(&b, TickIn{}, l, tm, t0)
	Tick(&b, TickIn{Launched: []Launched{{Task: "bg-1", Child: "c1"}}}, l, tm, t0)
	if _, err := Cancel(&b, "bg-1", t0); err != nil {
		t.Fatal(err)
	}
	out := Tick(&b, TickIn{Observed: []Observation{{Task: "bg-1", Child: "c1", Status: "busy", Messages: 3}}}, l, tm, t0.Add(time.Second))
	if !slices.Equal(out.Abort, []Child{{Task: "bg-1", Child: "c1"}}) {
		t.Fatalf("the cancelled task's busy child was not aborted: %+v", out)
	}
	// bg-2 was handed out but its child never reported: lost after Stale.
	out = Tick(&b, TickIn{}, l, tm, t0.Add(2*time.Minute))
	if b.Task("bg-2").Status != Failed || out.Pending {
		t.Fatalf("lost launch: %+v, out %+v", b.Task("bg-2"), out)
	}
	// A late report of its child aborts the child.
	out = Tick(&b, TickIn{Launched: []Launched{{Task: "bg-2", Child: "c2"}}}, l, tm, t0.Add(3*time.Minute))
	if !slices.Equal(out.Abort, []Child{{Task: "bg-2", Child: "c2"}}) {
		t.Fatalf("late child not aborted: %+v", out)
	}
}
