package tasks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

var gateT0 = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

func gateCall(root string, task SessionTask, tool event.ToolName, paths []string, command string) *engine.Call {
	s := state.NewSession("s", "claude", gateT0)
	*SessionTaskKey.Of(s) = task
	ev := &event.Event{Kind: event.PreTool, SessionID: "s", ProjectDir: root, Cwd: root, Time: gateT0,
		Tool: event.Tool{Name: tool, Paths: paths, Command: command}}
	return &engine.Call{Event: ev, State: &engine.State{Session: s, Project: &state.Project{}}, Decision: &event.Decision{}, Memo: &engine.Memo{}}
}

func TestGate(t *testing.T) {
	root := t.TempDir()
	shut := SessionTask{Number: 3, Title: "Health", Plan: ".atreides/specs/3_health/plans/implementation-001.md", Version: 1, SpecsDir: ".atreides/specs"}
	open := shut
	open.Approved = true
	for name, tc := range map[string]struct {
		task    SessionTask
		tool    event.ToolName
		paths   []string
		command string
		deny    string
	}{
		"no task":             {SessionTask{}, event.Write, []string{"main.go"}, "", ""},
		"approved":            {open, event.Write, []string{"main.go"}, "", ""},
		"write source":        {shut, event.Write, []string{"main.go"}, "", "the write to main.go. The plan of task 3 (Health), version 1"},
		"edit absolute":       {shut, event.Edit, []string{filepath.Join(root, "x", "y.go")}, "", "the write to x/y.go"},
		"the plan itself":     {shut, event.Edit, []string{shut.Plan}, "", ""},
		"outside the project": {shut, event.Write, []string{"/tmp/scratch.txt"}, "", ""},
		"a read":              {shut, event.Read, []string{"main.go"}, "", ""},
		"shell redirect":      {shut, event.Shell, nil, "echo hi > out.txt", "the write to out.txt"},
		"shell test":          {shut, event.Shell, nil, "go test ./...", ""},
		"shell into specs":    {shut, event.Shell, nil, "echo x > .atreides/specs/3_health/notes.md", ""},
		"no plan":             {SessionTask{Number: 3, Title: "Health", SpecsDir: ".atreides/specs"}, event.Write, []string{"a.go"}, "", "without a plan"},
	} {
		r := gate(gateCall(root, tc.task, tc.tool, tc.paths, tc.command))
		switch {
		case tc.deny == "" && r.Verdict == event.Deny:
			t.Errorf("%s: denied: %s", name, r.Reason)
		case tc.deny != "" && (r.Verdict != event.Deny || !strings.Contains(r.Reason, tc.deny)):
			t.Errorf("%s: %v %q, want a denial with %q", name, r.Verdict, r.Reason, tc.deny)
		case tc.deny != "" && !strings.Contains(r.Reason, "atreides plan"):
			t.Errorf("%s: the reason does not say what to run: %s", name, r.Reason)
		}
	}
}

// TestSessionRecordFollowsTheBoard: a change of the board rewrites the
// record of the session that claims the task, in the same transaction.
func TestSessionRecordFollowsTheBoard(t *testing.T) {
	root := t.TempDir()
	r := Open(root, FromConfig(config.Builtin()))
	ctx := context.Background()
	must(t, r.Store.Update(ctx, func(tx *store.Tx) error { return state.SaveSession(tx, state.NewSession("s1", "claude", gateT0)) }))
	record := func() SessionTask {
		var s *state.Session
		must(t, r.Store.View(ctx, func(tx *store.Tx) (err error) { s, err = state.FindSession(tx, "s1"); return err }))
		return *SessionTaskKey.Of(s)
	}
	must(t, r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		if _, err := Add(b, NewTask{Title: "Health endpoint"}, now); err != nil {
			return err
		}
		if _, err := Claim(b, 1, taskboard.TaskClaim{Session: "s1"}, false, now); err != nil {
			return err
		}
		_, err := SetStatus(b, 1, InProgress, "", now)
		return err
	}))
	if rec := record(); rec.Number != 1 || rec.Approved || rec.Plan != "" {
		t.Fatalf("record after start = %+v", rec)
	}
	p, _, err := r.NewPlan(ctx, 1)
	must(t, err)
	must(t, os.WriteFile(filepath.Join(root, p), []byte("## Phase 1: One [NOT STARTED]\nVerify: true\n## Phase 2: Two\n"), 0o644))
	_, err = r.Approve(ctx, 1, "")
	must(t, err)
	rec := record()
	if !rec.Approved || rec.Phase != 1 || rec.Phases != 2 || rec.Verify != "true" || rec.Plan != p {
		t.Fatalf("record after approval = %+v", rec)
	}
	_, _, err = r.SetPhase(ctx, 1, 1, Completed)
	must(t, err)
	if rec := record(); rec.Phase != 2 || rec.Done != 1 || rec.PhaseTitle != "Two" {
		t.Fatalf("record after phase 1 = %+v", rec)
	}
	must(t, r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		_, err := SetStatus(b, 1, Completed, "", now)
		return err
	}))
	if rec := record(); rec != (SessionTask{}) {
		t.Fatalf("record after done = %+v", rec)
	}
}

// BenchmarkGate is the PreToolUse cost of the gate: a session without a
// task (every session, most of the time) and one held at the gate.
func BenchmarkGate(b *testing.B) {
	root := b.TempDir()
	shut := SessionTask{Number: 3, Plan: "p", SpecsDir: ".atreides/specs"}
	for _, bc := range []struct {
		name string
		task SessionTask
	}{{"no-task", SessionTask{}}, {"unapproved", shut}} {
		b.Run(bc.name, func(b *testing.B) {
			c := gateCall(root, bc.task, event.Write, []string{"main.go"}, "")
			for b.Loop() {
				gate(c)
			}
		})
	}
}

// TestGatePinned: an approval lets writes through only while the plan
// file says what was approved: the gate reads it for such a write, shuts
// when it changed (the session's record loses the approval, so the stop
// gate lets the agent ask the user) and opens again when it is put back.
func TestGatePinned(t *testing.T) {
	root := t.TempDir()
	plan := ".atreides/specs/3_health/plans/implementation-001.md"
	approved := "# Plan\n\n## Phase 1: Route [NOT STARTED]\nVerify: go test ./...\n"
	write := func(s string) {
		t.Helper()
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(root, plan)), 0o755))
		must(t, os.WriteFile(filepath.Join(root, plan), []byte(s), 0o644))
	}
	task := SessionTask{Number: 3, Title: "Health", Plan: plan, Version: 1, SpecsDir: ".atreides/specs",
		Approved: true, Pinned: PlanHash([]byte(approved))}
	c := gateCall(root, task, event.Write, []string{"main.go"}, "")
	rec := SessionTaskKey.Of(c.State.Session)
	for _, step := range []struct {
		name, plan string
		deny       bool
	}{
		{"as approved", approved, false},
		{"a marker moved, blanks added", strings.Replace(approved, "[NOT STARTED]", "[COMPLETED]", 1) + "\n\n", false},
		{"a phase added", approved + "\n## Phase 2: Delete the database\nVerify: true\n", true},
		{"put back", approved, false},
		{"the Verify line changed", strings.Replace(approved, "go test ./...", "true", 1), true},
	} {
		write(step.plan)
		r := gate(c)
		if (r.Verdict == event.Deny) != step.deny || rec.Approved == step.deny {
			t.Errorf("%s: %v %q, record approved %v", step.name, r.Verdict, r.Reason, rec.Approved)
		}
		if step.deny && !strings.Contains(r.Reason, "changed since the user approved it") {
			t.Errorf("%s: reason %q", step.name, r.Reason)
		}
	}
	// A write into the specs directory (the plan itself) is never held.
	if r := gate(gateCall(root, *rec, event.Edit, []string{plan}, "")); r.Verdict == event.Deny {
		t.Errorf("the plan's own edit was denied: %s", r.Reason)
	}
}

// BenchmarkGatePinned is the cost the content pin adds to a write while an
// approved task is in progress: one read of the plan and its hash.
func BenchmarkGatePinned(b *testing.B) {
	root := b.TempDir()
	plan := ".atreides/specs/3_health/plans/implementation-001.md"
	text := "# Plan\n\n" + strings.Repeat("## Phase 1: Route [NOT STARTED]\n- Change the router and its tests.\nVerify: go test ./...\n\n", 40)
	if err := os.MkdirAll(filepath.Dir(filepath.Join(root, plan)), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, plan), []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	task := SessionTask{Number: 3, Title: "Health", Plan: plan, Version: 1, SpecsDir: ".atreides/specs", Approved: true, Pinned: PlanHash([]byte(text))}
	c := gateCall(root, task, event.Write, []string{"main.go"}, "")
	b.ReportAllocs()
	for b.Loop() {
		if r := gate(c); r.Verdict == event.Deny {
			b.Fatal(r.Reason)
		}
	}
}
