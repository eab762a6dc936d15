package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

func TestNormalizeCause(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"go test ./internal/x  -run TestA", "go test ./internal/x -run TestA"},
		{"main.go:12:3: undefined: foo", "main.go:N:N: undefined: foo"},
		{"open /tmp/go-build3921/b001/x.test: no such file", "open <tmp>: no such file"},
		{"open /var/folders/ab/T/x1 failed", "open <tmp> failed"},
		{"commit 3f2a9c1d8e not found", "commit <id> not found"},
		{"session 0f8fad5b-d9cb-469f-a165-70867728950e gone", "session <id> gone"},
		{"child ses_4Xb9kQ2mZ7pR1tY8wLz0 no longer exists", "child <id> no longer exists"},
		{"a defaced facade", "a defaced facade"}, // hex letters only: words
		{"curl -H 'Authorization: Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345' x", ""},
	} {
		got := NormalizeCause(tc.in)
		if tc.want == "" {
			if strings.Contains(got, "abcdefghijklmnop") {
				t.Errorf("NormalizeCause(%q) kept the secret: %q", tc.in, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("NormalizeCause(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if long := NormalizeCause(strings.Repeat("é", 200)); len(long) > maxCause+len("…") {
		t.Errorf("cause not bounded: %d bytes", len(long))
	}
}

func TestRecord(t *testing.T) {
	type step struct {
		ev   ErrorEvent
		at   int // minutes after t0 the event is recorded
		fix  bool
		want string // the entry after the step: number type count severity fix recurred
	}
	ev := func(typ, cause string, min int) ErrorEvent {
		return ErrorEvent{Type: typ, Cause: cause, Message: "m" + cause, Time: at(min)}
	}
	for _, tc := range []struct {
		name  string
		steps []step
		n     int // entries at the end
	}{
		{"a new error", []step{{ev: ev("build_error", "go build ./...", 0), want: "1 build_error 1 high  0"}}, 1},
		{"the same cause recurs in place", []step{
			{ev: ev("build_error", "main.go:12: undefined: x", 0), want: "1 build_error 1 high  0"},
			{ev: ev("build_error", "main.go:40: undefined: x", 5), want: "1 build_error 2 high  0"},
		}, 1},
		{"another type is another entry", []step{
			{ev: ev("build_error", "go vet", 0), want: "1 build_error 1 high  0"},
			{ev: ev("timeout", "go vet", 1), want: "2 timeout 1 medium  0"},
		}, 2},
		{"a strike class is a type in snake case", []step{
			{ev: ev("file-not-found", "Read x.go", 0), want: "1 file_not_found 1 low  0"},
			{ev: ev("file_not_found", "Read x.go", 1), want: "1 file_not_found 2 low  0"},
		}, 1},
		{"a worse severity wins, a milder one does not", []step{
			{ev: ErrorEvent{Type: "tool_failure", Cause: "c", Severity: "low", Time: at(0)}, want: "1 tool_failure 1 low  0"},
			{ev: ErrorEvent{Type: "tool_failure", Cause: "c", Severity: "critical", Time: at(1)}, want: "1 tool_failure 2 critical  0"},
			{ev: ErrorEvent{Type: "tool_failure", Cause: "c", Time: at(2)}, want: "1 tool_failure 3 critical  0"},
		}, 1},
		{"after a fix it recurred", []step{
			{ev: ev("build_error", "b", 0), want: "1 build_error 1 high  0"},
			{fix: true, at: 10},
			{ev: ev("build_error", "b", 20), want: "1 build_error 2 high recurred 1"},
			{ev: ev("build_error", "b", 30), want: "1 build_error 3 high recurred 2"},
		}, 1},
		{"an error from before the fix, recorded late, is not a recurrence", []step{
			{ev: ev("build_error", "b", 0), want: "1 build_error 1 high  0"},
			{fix: true, at: 10},
			{ev: ev("build_error", "b", 5), at: 15, want: "1 build_error 2 high fixed 0"},
		}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b taskboard.Tasks
			for i, s := range tc.steps {
				if s.fix {
					if _, err := ResolveError(&b, 1, "commit abc", at(s.at)); err != nil {
						t.Fatal(err)
					}
					continue
				}
				e := Record(&b, s.ev, taskboard.TaskErrorContext{}, at(s.at))
				got := fmt.Sprintf("%d %s %d %s %s %d", e.Number, e.Type, e.Count, e.Severity, e.Fix, e.Recurred)
				if got != s.want {
					t.Fatalf("step %d: %q, want %q", i, got, s.want)
				}
			}
			if len(b.Errors) != tc.n {
				t.Fatalf("%d entries, want %d", len(b.Errors), tc.n)
			}
		})
	}
}

func TestRecordKeepsTheLatestAndFirst(t *testing.T) {
	var b taskboard.Tasks
	Record(&b, ErrorEvent{Type: "timeout", Cause: "c", Message: "first", Time: at(5)}, taskboard.TaskErrorContext{Session: "s1"}, at(5))
	Record(&b, ErrorEvent{Type: "timeout", Cause: "c", Message: "older", Time: at(1)}, taskboard.TaskErrorContext{Session: "s0"}, at(6))
	e := Record(&b, ErrorEvent{Type: "timeout", Cause: "c", Message: "latest", Command: "make", Time: at(9)}, taskboard.TaskErrorContext{Session: "s2"}, at(9))
	if e.Count != 3 || !e.First.Equal(at(5)) || !e.Last.Equal(at(9)) || e.Message != "latest" || e.Context.Session != "s2" || e.Context.Command != "make" {
		t.Fatalf("%+v", e)
	}
}

func TestRecordMasksSecrets(t *testing.T) {
	var b taskboard.Tasks
	secret := "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	e := Record(&b, ErrorEvent{Type: "auth", Cause: "git push https://" + secret + "@github.com/x",
		Message: "token " + secret + " refused", Command: "GITHUB_TOKEN=" + secret + " git push"}, taskboard.TaskErrorContext{}, t0)
	j, _ := json.Marshal(e)
	if strings.Contains(string(j), "0123456789abcdefghij") {
		t.Fatalf("secret kept: %s", j)
	}
}

func TestRecordIsBounded(t *testing.T) {
	var b taskboard.Tasks
	Record(&b, ErrorEvent{Type: "build_error", Cause: "planned one", Time: at(0)}, taskboard.TaskErrorContext{}, at(0))
	if _, err := PlanFix(&b, []int{1}, at(0)); err != nil {
		t.Fatal(err)
	}
	for i := range MaxErrors + 10 {
		Record(&b, ErrorEvent{Type: "tool_failure", Cause: fmt.Sprintf("cause %c%c", 'a'+i/26, 'a'+i%26), Time: at(1 + i)}, taskboard.TaskErrorContext{}, at(1+i))
	}
	if len(b.Errors) != MaxErrors {
		t.Fatalf("%d entries", len(b.Errors))
	}
	// The oldest went, except the one whose fix is under way; numbers are
	// never reused.
	if b.Error(1) == nil || b.Error(2) != nil || b.Error(12) != nil || b.Error(13) == nil || b.NextError != MaxErrors+12 {
		t.Fatalf("kept %d..%d, next %d", b.Errors[0].Number, b.Errors[len(b.Errors)-1].Number, b.NextError)
	}
}

func TestPlanFixAndTheFixCycle(t *testing.T) {
	var b taskboard.Tasks
	Record(&b, ErrorEvent{Type: "lint_failure", Cause: "golangci-lint run", Time: at(0)}, taskboard.TaskErrorContext{}, at(0))
	Record(&b, ErrorEvent{Type: "compile_error", Cause: "go build ./...", Message: "undefined: x", Time: at(1)}, taskboard.TaskErrorContext{}, at(1))
	task, err := PlanFix(&b, []int{2, 1, 2}, at(2))
	if err != nil {
		t.Fatal(err)
	}
	if task.Priority != "high" || fmt.Sprint(task.Errors) != "[1 2]" || task.Title != "Fix 2 errors: lint_failure, compile_error" ||
		!strings.Contains(task.Description, "error 2, compile_error (high), seen 1 times") || !strings.Contains(task.Description, "undefined: x") {
		t.Fatalf("task %+v", task)
	}
	for _, n := range []int{1, 2} {
		if e := b.Error(n); e.Fix != FixPlanned || fmt.Sprint(e.FixRefs) != "[task 1]" || FixState(e) != "fix planned (task 1)" {
			t.Fatalf("error %d: %+v", n, e)
		}
	}
	if _, err := PlanFix(&b, []int{1}, at(3)); err == nil || !strings.Contains(err.Error(), "already has fix task 1") {
		t.Fatalf("second plan: %v", err)
	}
	if _, err := PlanFix(&b, []int{9}, at(3)); err == nil {
		t.Fatal("planned a missing error")
	}
	// Completing the task fixes them; the fix holds until they recur.
	if _, err := SetStatus(&b, task.Number, Completed, "", at(10)); err != nil {
		t.Fatal(err)
	}
	e := b.Error(2)
	if e.Fix != FixFixed || !e.Fixed.Equal(at(10)) || FixState(e) != "fixed, held since 2026-11-23" {
		t.Fatalf("after completion: %+v", e)
	}
	Record(&b, ErrorEvent{Type: "compile_error", Cause: "go build ./...", Time: at(20)}, taskboard.TaskErrorContext{}, at(20))
	if FixState(e) != "recurred once after the fix" || b.Error(1).Fix != FixFixed {
		t.Fatalf("after recurrence: %s / %+v", FixState(e), b.Error(1))
	}
	// A recurred error gets a new fix task; abandoning it leaves it recurred.
	again, err := PlanFix(&b, []int{2}, at(21))
	if err != nil || again.Title != "Fix compile_error: go build ./..." || again.Priority != "high" {
		t.Fatalf("replan: %+v %v", again, err)
	}
	if _, err := SetStatus(&b, again.Number, Abandoned, "", at(22)); err != nil {
		t.Fatal(err)
	}
	if e.Fix != FixRecurred || fmt.Sprint(e.FixRefs) != "[task 1 task 2]" {
		t.Fatalf("after abandon: %+v", e)
	}
}

func TestResolveError(t *testing.T) {
	var b taskboard.Tasks
	Record(&b, ErrorEvent{Type: "git", Cause: "git push", Time: t0}, taskboard.TaskErrorContext{}, t0)
	if _, err := ResolveError(&b, 1, " ", t0); err == nil {
		t.Fatal("resolved without a reference")
	}
	if _, err := ResolveError(&b, 2, "x", t0); err == nil {
		t.Fatal("resolved a missing error")
	}
	e, err := ResolveError(&b, 1, "commit 1a2b3c4", at(5))
	if err != nil || e.Fix != FixFixed || fmt.Sprint(e.FixRefs) != "[commit 1a2b3c4]" {
		t.Fatalf("%+v %v", e, err)
	}
}

func TestDrainOutboxNamesSessionAndClaimedTask(t *testing.T) {
	var b taskboard.Tasks
	task, _ := Add(&b, NewTask{Title: "t"}, t0)
	if _, err := Claim(&b, task.Number, taskboard.TaskClaim{Session: "s1", Agent: "a1"}, false, t0); err != nil {
		t.Fatal(err)
	}
	s := &state.Session{ID: "s1"}
	QueueError(s, ErrorEvent{Type: "cycle_detected", Cause: "main → a → a", Agent: "a1", Time: t0})
	QueueError(s, ErrorEvent{Type: "timeout", Cause: "x", Time: t0})
	if n := DrainOutbox(&b, s, at(1)); n != 2 || len(*OutboxKey.Of(s)) != 0 {
		t.Fatalf("drained %d, left %d", n, len(*OutboxKey.Of(s)))
	}
	if c := b.Error(1).Context; c.Session != "s1" || c.Task != task.Number || c.Agent != "a1" {
		t.Fatalf("context %+v", c)
	}
	if c := b.Error(2).Context; c.Session != "s1" || c.Task != 0 {
		t.Fatalf("context of the lead agent's error %+v", c)
	}
}

func TestOutboxIsBounded(t *testing.T) {
	s := &state.Session{}
	for i := range MaxErrorOutbox + 5 {
		QueueError(s, ErrorEvent{Cause: fmt.Sprint(i)})
	}
	if len(*OutboxKey.Of(s)) != MaxErrorOutbox || (*OutboxKey.Of(s))[0].Cause != "5" {
		t.Fatalf("%d kept, first %q", len(*OutboxKey.Of(s)), (*OutboxKey.Of(s))[0].Cause)
	}
}

type testEnv struct{ now time.Time }

func (testEnv) Logf(string, ...any) {}
func (e testEnv) Now() time.Time    { return e.now }

// The drain handler runs through the engine over a real store: an outbox
// filled by one event is on the board after the next Stop (a prompt
// does not drain it), and a Stop with an empty outbox changes nothing.
func TestErrorsHandlerDrains(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
	st := store.Open(project.StateDir(root))
	fill := engine.Handler{Name: "fill", Kinds: []event.Kind{event.PostTool}, Groups: OutboxKey.Group(),
		Handle: func(c *engine.Call) (event.Result, error) {
			QueueError(c.State.Session, ErrorEvent{Type: "compile-error", Cause: "Bash go build", Time: c.Event.Time})
			return event.Result{}, nil
		}}
	run := func(k event.Kind) {
		eng := engine.New(engine.StoreLoader{Store: st}, testEnv{at(1)}, fill, ErrorsHandler(root, func() Options { return Options{} }))
		eng.Run(context.Background(), &event.Event{Kind: k, SessionID: "s1", ProjectDir: root, Cwd: root, Host: "claude", Time: at(1)})
	}
	board := func() (b taskboard.Tasks, outbox int) {
		st.View(context.Background(), func(tx *store.Tx) error {
			p, _ := state.LoadProject(tx)
			s, _ := state.FindSession(tx, "s1")
			b, outbox = *taskboard.Key.Of(p), len(*OutboxKey.Of(s))
			return nil
		})
		return
	}
	run(event.PostTool)
	run(event.PostTool)
	run(event.UserPrompt)
	if b, n := board(); n != 2 || len(b.Errors) != 0 {
		t.Fatalf("before the stop: outbox %d, board %d", n, len(b.Errors))
	}
	run(event.Stop)
	b, n := board()
	if n != 0 || len(b.Errors) != 1 || b.Errors[0].Count != 2 || b.Errors[0].Type != "compile_error" || b.Errors[0].Context.Session != "s1" || b.Gen != 1 || b.Files.Gen != 1 {
		t.Fatalf("after the stop: outbox %d, board %+v", n, b)
	}
	run(event.Stop)
	if b, _ := board(); b.Gen != 1 {
		t.Fatalf("an empty outbox changed the board: gen %d", b.Gen)
	}
}

// 'atreides errors' drains every session, also one that never stopped.
func TestDrainOutboxes(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
	r := Open(root, Options{})
	r.Now = func() time.Time { return at(2) }
	err := r.Store.Update(context.Background(), func(tx *store.Tx) error {
		for _, id := range []string{"s1", "s2", "s3"} {
			s, err := state.LoadSession(tx, id, "claude", t0)
			if err != nil {
				return err
			}
			if id != "s3" {
				QueueError(s, ErrorEvent{Type: "timeout", Cause: "go test", Time: t0})
			}
			if err := state.SaveSession(tx, s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := r.DrainOutboxes(context.Background()); n != 2 || err != nil {
		t.Fatalf("drained %d: %v", n, err)
	}
	if n, err := r.DrainOutboxes(context.Background()); n != 0 || err != nil {
		t.Fatalf("drained again %d: %v", n, err)
	}
	r.View(context.Background(), func(b *taskboard.Tasks) error {
		if len(b.Errors) != 1 || b.Errors[0].Count != 2 || b.Gen != 1 {
			t.Fatalf("board %+v", b)
		}
		return nil
	})
}
