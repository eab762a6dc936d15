package todos

import (
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
)

func TestAddTodoRules(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// #1 epic, #2 task under it, #3 subtask under #2, #4 a done task.
	base := func() *state.Project {
		p := &state.Project{}
		for _, n := range []New{
			{Title: "epic", Level: "epic"}, {Title: "task", Parent: 1}, {Title: "sub", Parent: 2}, {Title: "done"},
		} {
			if _, err := Add(p, n, now); err != nil {
				t.Fatal(err)
			}
		}
		if err := Key.Of(p).SetStatus(4, Done, now); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := base(); Key.Read(p).List[1].Level != Task || Key.Read(p).List[2].Level != Subtask || Key.Read(p).List[3].Level != Task {
		t.Fatalf("default levels: %+v", Key.Read(p).List)
	}
	for _, tc := range []struct {
		name string
		in   New
		want Todo   // checked fields: Level, Parent, Priority, File, Line, Agent
		err  string // a substring of the error; empty: accepted
	}{
		{"top-level default", New{Title: " t "}, Todo{Title: "t", Level: Task}, ""},
		{"epic at the top", New{Title: "e", Level: "EPIC"}, Todo{Title: "e", Level: Epic}, ""},
		{"subtask without parent", New{Title: "s", Level: "subtask"}, Todo{}, "needs a parent"},
		{"subtask under an epic", New{Title: "s", Level: "subtask", Parent: 1}, Todo{Title: "s", Level: Subtask, Parent: 1}, ""},
		{"default under a task", New{Title: "s", Parent: 2}, Todo{Title: "s", Level: Subtask, Parent: 2}, ""},
		{"epic under a task", New{Title: "e", Level: "epic", Parent: 2}, Todo{}, "cannot go under a task"},
		{"epic under an epic", New{Title: "e", Level: "epic", Parent: 1}, Todo{}, "cannot go under an epic"},
		{"task under a task", New{Title: "x", Level: "task", Parent: 2}, Todo{}, "cannot go under a task"},
		{"under a subtask", New{Title: "x", Parent: 3}, Todo{}, "cannot have todos under it"},
		{"under a done todo", New{Title: "x", Parent: 4}, Todo{}, "is done"},
		{"missing parent", New{Title: "x", Parent: 99}, Todo{}, "no todo #99"},
		{"unknown level", New{Title: "x", Level: "story"}, Todo{}, "not one of epic"},
		{"no title", New{Title: "  "}, Todo{}, "needs a title"},
		{"long title", New{Title: strings.Repeat("x", 1001)}, Todo{}, "at most 1000"},
		{"everything", New{Title: "fix", Priority: "High", File: "internal/x.go", Line: 42, Agent: " oracle "},
			Todo{Title: "fix", Level: Task, Priority: "high", File: "internal/x.go", Line: 42, Agent: "oracle"}, ""},
		{"file:line", New{Title: "fix", File: "a/b.go:7"}, Todo{Title: "fix", Level: Task, File: "a/b.go", Line: 7}, ""},
		{"file:line with a line", New{Title: "fix", File: "a:b.go:7", Line: 3}, Todo{Title: "fix", Level: Task, File: "a:b.go:7", Line: 3}, ""},
		{"bad priority", New{Title: "x", Priority: "urgent"}, Todo{}, "not one of critical"},
		{"line without file", New{Title: "x", Line: 3}, Todo{}, "a line needs a file"},
		{"negative line", New{Title: "x", File: "f", Line: -1}, Todo{}, "not a line number"},
		{"file with a newline", New{Title: "x", File: "a\nb"}, Todo{}, "control character"},
		{"long agent", New{Title: "x", Agent: strings.Repeat("a", 101)}, Todo{}, "at most 100"},
	} {
		p := base()
		got, err := Add(p, tc.in, now)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			if len(Key.Read(p).List) != 4 || Key.Read(p).Next != 4 {
				t.Errorf("%s: a refused todo changed the project", tc.name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got.ID != 5 || got.Status != Pending || got.Title != tc.want.Title || got.Level != tc.want.Level || got.Parent != tc.want.Parent ||
			got.Priority != tc.want.Priority || got.File != tc.want.File || got.Line != tc.want.Line || got.Agent != tc.want.Agent {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestSetStatus(t *testing.T) {
	p := &state.Project{}
	if _, err := Add(p, New{Title: "x"}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id     int
		status string
		ok     bool
	}{{1, "done", true}, {1, "In_Progress", true}, {1, "finished", false}, {2, "done", false}} {
		if err := Key.Of(p).SetStatus(tc.id, tc.status, time.Time{}); (err == nil) != tc.ok {
			t.Errorf("SetStatus(%d, %q): %v", tc.id, tc.status, err)
		}
	}
	if Key.Read(p).List[0].Status != InProgress {
		t.Errorf("status %q", Key.Read(p).List[0].Status)
	}
}

// TestTaskRoundTrip: the task a todo points at survives the record, in a
// section of its own that a record with no such todo leaves out (so its
// bytes are those an older atreides wrote).
func TestTaskRoundTrip(t *testing.T) {
	p := &state.Project{}
	for _, n := range []New{{Title: "plain"}, {Title: "a step", Task: 3}} {
		if _, err := Add(p, n, time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Add(p, New{Title: "x", Task: -1}, time.Time{}); err == nil {
		t.Error("a negative task number was taken")
	}
	got, err := state.DecodeProject(state.EncodeProject(p))
	if err != nil {
		t.Fatal(err)
	}
	if l := Key.Read(got).List; len(l) != 2 || l[0].Task != 0 || l[1].Task != 3 {
		t.Errorf("decoded %+v", l)
	}
	// Without a task pointer the section is left out: one todo with none
	// encodes shorter than the same todo with one.
	one := func(task int) int {
		q := &state.Project{}
		if _, err := Add(q, New{Title: "plain", Task: task}, time.Time{}); err != nil {
			t.Fatal(err)
		}
		return len(state.EncodeProject(q))
	}
	if without, with := one(0), one(3); without >= with {
		t.Errorf("%d bytes without a task pointer, %d with one", without, with)
	}
}
