package session

import (
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
)

func sessionTask() tasks.SessionTask {
	return tasks.SessionTask{Number: 3, Title: "Health endpoint", Plan: ".atreides/specs/3_health-endpoint/plans/implementation-001.md",
		Version: 1, Approved: true, Phase: 2, PhaseTitle: "Phase 2: Wire it", Verify: "go test ./...", Phases: 3, Done: 1}
}

func TestStopGateTaskPhase(t *testing.T) {
	opts := func() Options { return testOptions() }
	stop := func(s *state.Session, active bool) event.Result {
		ev := &event.Event{Kind: event.Stop, SessionID: "s", Time: t0, StopHookActive: active}
		c := &engine.Call{Event: ev, State: &engine.State{Session: s, Project: &state.Project{}}, Decision: &event.Decision{}}
		r, err := stopGate(c, opts, func(string) bool { return false })
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for name, tc := range map[string]struct {
		edit  func(*tasks.SessionTask)
		block bool
		want  string
	}{
		"open phase":      {func(*tasks.SessionTask) {}, true, "task 3 (Health endpoint), phase 2 of 3: Phase 2: Wire it (verify: `go test ./...`)"},
		"all phases done": {func(t *tasks.SessionTask) { t.Phase, t.Done = 0, 3 }, true, "every phase of its plan is completed; mark the task done (`atreides task done 3`)"},
		"not approved":    {func(t *tasks.SessionTask) { t.Approved = false }, false, ""},
		"no plan": {func(t *tasks.SessionTask) {
			*t = tasks.SessionTask{Number: 3, Title: "Health endpoint", Approved: true}
		}, true, "task 3 (Health endpoint) is in progress: finish it and mark it done (`atreides task done 3`)"},
		"no plan, approval asked": {func(t *tasks.SessionTask) { *t = tasks.SessionTask{Number: 3} }, false, ""},
		"no task":                 {func(t *tasks.SessionTask) { *t = tasks.SessionTask{} }, false, ""},
	} {
		s := state.NewSession("s", "claude", t0)
		*tasks.SessionTaskKey.Of(s) = sessionTask()
		tc.edit(tasks.SessionTaskKey.Of(s))
		r := stop(s, false)
		if r.Block != tc.block || !strings.Contains(r.BlockReason, tc.want) {
			t.Errorf("%s: block %v, reason %q", name, r.Block, r.BlockReason)
		}
	}

	// Bounded like any todo: a second stop without progress goes through;
	// a completed phase is progress.
	s := state.NewSession("s", "claude", t0)
	*tasks.SessionTaskKey.Of(s) = sessionTask()
	if !stop(s, false).Block {
		t.Fatal("first stop not blocked")
	}
	if stop(s, true).Block {
		t.Error("blocked again without progress")
	}
	t2 := tasks.SessionTaskKey.Of(s)
	t2.Phase, t2.PhaseTitle, t2.Done = 3, "Phase 3: Docs", 2
	if r := stop(s, true); !r.Block || !strings.Contains(r.BlockReason, "phase 3 of 3") {
		t.Errorf("a completed phase did not count as progress: %+v", r)
	}
}

func TestMemoryTaskNeighbourhood(t *testing.T) {
	b := &taskboard.Tasks{List: []taskboard.Task{
		{Number: 1, Title: "Epic", Status: "in progress", Parent: 9},
		{Number: 2, Title: "Schema", Status: "completed", BlockedBy: []int{5}},
		{Number: 3, Title: "Health endpoint", Status: "in progress", Parent: 1, BlockedBy: []int{2}},
		{Number: 4, Title: "Sibling work", Status: "not started", Parent: 1},
		{Number: 5, Title: "Migration", Status: "completed"},
		{Number: 6, Title: "Unrelated", Status: "not started"},
		{Number: 7, Title: "Subtask", Status: "not started", Parent: 3},
		{Number: 9, Title: "Roadmap", Status: "in progress"},
	}}
	near, depths := neighbourhood(b, 3)
	var got []string
	for _, r := range near {
		got = append(got, r.rel+" "+r.task.Title)
	}
	want := "in progress Health endpoint|parent Epic|depends on Schema|sibling Sibling work|subtask Subtask|ancestor Roadmap|depends on (indirectly) Migration"
	if strings.Join(got, "|") != want {
		t.Errorf("neighbourhood = %s", strings.Join(got, "|"))
	}
	if _, ok := depths[6]; ok {
		t.Error("an unrelated task is near")
	}

	cur := sessionTask()
	items, depths := taskItems(b, &cur, secTasks)
	as := []anchors.Anchor{
		{ID: 1, Kind: "fact", Priority: "low", Text: "about the parent", Created: t0, Target: "task 1"},
		{ID: 2, Kind: "fact", Priority: "low", Text: "about nothing", Created: t0},
	}
	o := testOptions().normalize()
	out := renderState(&compaction.Snapshot{Time: t0}, withAnchors(as), "", items, depths, o, t0)
	for _, w := range []string{"Task in progress and the tasks near it:",
		"- in progress: task 3 [IN PROGRESS] Health endpoint (plan .atreides/specs/3_health-endpoint/plans/implementation-001.md, phase 2 of 3: Phase 2: Wire it)",
		"- parent: task 1 [IN PROGRESS] Epic"} {
		if !strings.Contains(out, w) {
			t.Errorf("state block lacks %q:\n%s", w, out)
		}
	}
	if strings.Index(out, "about the parent") > strings.Index(out, "about nothing") {
		t.Errorf("the anchor about a near task is not first:\n%s", out)
	}
	if strings.Index(out, "Roadmap") < strings.Index(out, "Sibling work") {
		t.Errorf("a farther task came before a nearer one:\n%s", out)
	}

	// A tight budget keeps the nearer tasks.
	full := renderState(&compaction.Snapshot{Time: t0}, &state.Project{}, "", items, depths, o, t0)
	o.MemoryBudget = len(full) - 20
	tight := renderState(&compaction.Snapshot{Time: t0}, &state.Project{}, "", items, depths, o, t0)
	if !strings.Contains(tight, "Health endpoint") || strings.Contains(tight, "Migration") {
		t.Errorf("tight budget:\n%s", tight)
	}
}
