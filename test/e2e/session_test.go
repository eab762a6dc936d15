package e2e

import (
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// TestClaudeSession drives the session orchestration through real Claude
// Code: todos that keep the agent working, loop safety, 3-strike
// escalation and the state block after /compact.
func TestClaudeSession(t *testing.T) {
	requireAtreides(t)
	for _, sc := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"TodosKeepGoingThenCleanStop", scenarioTodosProgress},
		{"NoProgressLetGo", scenarioNoProgress},
		{"ThreeStrikesEscalate", scenarioStrikes},
		{"CompactReinjectsState", scenarioCompact},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			sc.fn(t)
		})
	}
}

// Two pending todos: the first Stop blocks with both; the agent finishes
// one (real progress), so the Stop with stop_hook_active=true blocks again
// with the other; once both are done the Stop goes through.
func scenarioTodosProgress(t *testing.T) {
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Text("All finished."),
		fa.Call(fa.Bash(atreidesBin + " todo done 1")),
		fa.Text("Report written."),
		fa.Call(fa.Bash(atreidesBin + " todo done 2")),
		fa.Text("Changelog updated; everything is done."),
	}})
	p.InstallAtreides()
	sid := NewSessionID(t)
	p.SessionTodo(sid, "write the report")
	p.SessionTodo(sid, "update the changelog")
	p.RunClaude("do the work", RunOpts{Args: []string{"--session-id", sid}})

	main := p.Fake.Main()
	if len(main) != 5 {
		t.Fatalf("got %d main requests, want 5 (block, work, block, work, clean stop)", len(main))
	}
	if r := main[1]; !r.Contains("write the report") || !r.Contains("update the changelog") || r.CountMessagesContaining("Stop hook feedback") != 1 {
		t.Errorf("first block should list both todos")
	}
	if r := main[3]; !r.Contains("1 todo(s) still open") || r.CountMessagesContaining("Stop hook feedback") != 2 {
		t.Errorf("second block should list the one remaining todo")
	}
	if n := main[4].CountMessagesContaining("Stop hook feedback"); n != 2 {
		t.Errorf("last request has %d Stop hook feedback messages, want 2 (no third block)", n)
	}
	if out := p.Atreides("todo", "list"); !strings.Contains(out, "no open todos") {
		t.Errorf("todo list after the run: %s", out)
	}
}

// Without progress, each turn's first Stop blocks once and the next one
// (stop_hook_active=true) goes through; after 3 blocked stops without
// progress (session.stop.stagnant_turns) the gate stops blocking at all.
func scenarioNoProgress(t *testing.T) {
	var steps []fa.Step
	for range 8 {
		steps = append(steps, fa.Text("Not doing the todo."))
	}
	p := NewProject(t, fa.Script{Steps: steps})
	p.InstallAtreides()
	sid := NewSessionID(t)
	p.SessionTodo(sid, "write the report")
	p.RunClaude("turn 1", RunOpts{Args: []string{"--session-id", sid}})
	want := []int{2, 2, 2, 1} // main requests per run: blocked once, then let go; the 4th not blocked
	before := len(p.Fake.Main())
	if before != want[0] {
		t.Errorf("run 1: %d main requests, want %d", before, want[0])
	}
	for i := 1; i < len(want); i++ {
		p.RunClaude("another turn", RunOpts{Args: []string{"--resume", sid}})
		n := len(p.Fake.Main())
		if n-before != want[i] {
			t.Errorf("run %d: %d main requests, want %d", i+1, n-before, want[i])
		}
		before = n
	}
	if out := p.Atreides("status", "-v"); !strings.Contains(out, "without progress") {
		t.Errorf("status does not show the stop gate giving up:\n%s", out)
	}
}

// The same failing command three times: the request after the second
// failure carries the warning, the one after the third the escalation to
// the oracle with the error history.
func scenarioStrikes(t *testing.T) {
	const cmd = "ls missing-dir-xyz"
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.Bash(cmd)),
		fa.Call(fa.Bash(cmd)),
		fa.Call(fa.Bash(cmd)),
		fa.Text("I will consult the oracle."),
	}})
	p.InstallAtreides()
	p.RunClaude("list the directory", RunOpts{})

	main := p.Fake.Main()
	if len(main) < 4 {
		t.Fatalf("got %d main requests, want 4", len(main))
	}
	if !main[2].Contains("failed 2 times in a row") {
		t.Errorf("request after the 2nd failure lacks the strike warning")
	}
	for _, s := range []string{"atreides escalation", "failed 3 times in a row", "Stilgar", "file-not-found"} {
		if !main[3].Contains(s) {
			t.Errorf("request after the 3rd failure lacks %q", s)
		}
	}
	if main[1].Contains("times in a row") {
		t.Errorf("the first failure should only be recorded")
	}
}

// An anchor and an open todo survive /compact: the next request after the
// compaction carries one ATREIDES STATE block with both.
func scenarioCompact(t *testing.T) {
	p := NewProject(t, fa.Script{Steps: []fa.Step{fa.Text("Noted."), fa.Text("Resuming."), fa.Text("Resuming.")}})
	p.InstallAtreides()
	sid := NewSessionID(t)
	p.SessionTodo(sid, "write the report")
	p.Atreides("anchor", "add", "--priority", "critical", "--kind", "constraint", "never touch the production database")
	p.RunClaude("remember: the API is v2 only", RunOpts{Args: []string{"--session-id", sid}})
	p.RunClaude("/compact keep it short", RunOpts{Args: []string{"--resume", sid}})
	n := len(p.Fake.Main())
	p.RunClaude("continue", RunOpts{Args: []string{"--resume", sid}})

	main := p.Fake.Main()
	var found bool
	for _, r := range main[n:] {
		if r.Contains("<!-- ATREIDES STATE -->") {
			found = true
			for _, s := range []string{"<!-- END ATREIDES STATE -->", "never touch the production database", "the API is v2 only", "write the report"} {
				if !r.Contains(s) {
					t.Errorf("state block lacks %q", s)
				}
			}
			if c := strings.Count(r.AllText(), "<!-- ATREIDES STATE -->"); c != 1 {
				t.Errorf("%d state blocks in one request, want 1", c)
			}
		}
	}
	if !found {
		t.Errorf("no request after /compact carries the ATREIDES STATE block")
	}
}

// TestClaudeTaskTools: Claude Code's per-item task tools count as todos.
// The model creates two tasks with TaskCreate and tries to stop; atreides
// keeps it going with both listed. It completes one with TaskUpdate (real
// progress) and is kept going again for the other; once both are
// completed the stop goes through.
func TestClaudeTaskTools(t *testing.T) {
	requireAtreides(t)
	create := func(subject string) fa.ToolUse {
		return fa.ToolUse{Name: "TaskCreate", Input: map[string]any{"subject": subject, "description": "scripted by the fake model"}}
	}
	complete := func(id string) fa.ToolUse {
		return fa.ToolUse{Name: "TaskUpdate", Input: map[string]any{"taskId": id, "status": "completed"}}
	}
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(create("write the report")),
		fa.Call(create("update the changelog")),
		fa.Text("All finished."),
		fa.Call(complete("1")),
		fa.Text("Report written."),
		fa.Call(complete("2")),
		fa.Text("Changelog updated; everything is done."),
	}})
	p.InstallAtreides()
	// Claude Code 2.1.330 keeps its todo tools from newer models (its
	// default here is one) unless CLAUDE_CODE_ENABLE_TODO_TOOLS=1.
	p.RunClaude("do the work", RunOpts{Env: []string{"CLAUDE_CODE_ENABLE_TODO_TOOLS=1"}})

	for i := range 2 {
		p.assertNotError(fa.ToolID("main", i, 0))
	}
	main := p.Fake.Main()
	if len(main) != 7 {
		t.Fatalf("got %d main requests, want 7 (two creates, block, complete, block, complete, clean stop)", len(main))
	}
	if r := main[3]; !r.Contains("2 todo(s) still open") || !r.Contains("write the report") || !r.Contains("update the changelog") || r.CountMessagesContaining("Stop hook feedback") != 1 {
		t.Errorf("the first stop should be blocked with both tasks listed")
	}
	if r := main[5]; !r.Contains("1 todo(s) still open") || r.CountMessagesContaining("Stop hook feedback") != 2 {
		t.Errorf("the second stop should be blocked with the one task left")
	}
	if n := main[6].CountMessagesContaining("Stop hook feedback"); n != 2 {
		t.Errorf("last request has %d Stop hook feedback messages, want 2 (no third block)", n)
	}
}
