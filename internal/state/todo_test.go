package state

import (
	"strings"
	"testing"
	"time"
)

func TestAddTodoRules(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// #1 epic, #2 task under it, #3 subtask under #2, #4 a done task.
	base := func() *Project {
		p := &Project{}
		for _, n := range []NewTodo{
			{Title: "epic", Level: "epic"}, {Title: "task", Parent: 1}, {Title: "sub", Parent: 2}, {Title: "done"},
		} {
			if _, err := p.AddTodo(n, now); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.SetStatus(4, TodoDone, now); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := base(); p.Todos[1].Level != LevelTask || p.Todos[2].Level != LevelSubtask || p.Todos[3].Level != LevelTask {
		t.Fatalf("default levels: %+v", p.Todos)
	}
	for _, tc := range []struct {
		name string
		in   NewTodo
		want Todo   // checked fields: Level, Parent, Priority, File, Line, Agent
		err  string // a substring of the error; empty: accepted
	}{
		{"top-level default", NewTodo{Title: " t "}, Todo{Title: "t", Level: LevelTask}, ""},
		{"epic at the top", NewTodo{Title: "e", Level: "EPIC"}, Todo{Title: "e", Level: LevelEpic}, ""},
		{"subtask without parent", NewTodo{Title: "s", Level: "subtask"}, Todo{}, "needs a parent"},
		{"subtask under an epic", NewTodo{Title: "s", Level: "subtask", Parent: 1}, Todo{Title: "s", Level: LevelSubtask, Parent: 1}, ""},
		{"default under a task", NewTodo{Title: "s", Parent: 2}, Todo{Title: "s", Level: LevelSubtask, Parent: 2}, ""},
		{"epic under a task", NewTodo{Title: "e", Level: "epic", Parent: 2}, Todo{}, "cannot go under a task"},
		{"epic under an epic", NewTodo{Title: "e", Level: "epic", Parent: 1}, Todo{}, "cannot go under an epic"},
		{"task under a task", NewTodo{Title: "x", Level: "task", Parent: 2}, Todo{}, "cannot go under a task"},
		{"under a subtask", NewTodo{Title: "x", Parent: 3}, Todo{}, "cannot have todos under it"},
		{"under a done todo", NewTodo{Title: "x", Parent: 4}, Todo{}, "is done"},
		{"missing parent", NewTodo{Title: "x", Parent: 99}, Todo{}, "no todo #99"},
		{"unknown level", NewTodo{Title: "x", Level: "story"}, Todo{}, "not one of epic"},
		{"no title", NewTodo{Title: "  "}, Todo{}, "needs a title"},
		{"long title", NewTodo{Title: strings.Repeat("x", 1001)}, Todo{}, "at most 1000"},
		{"everything", NewTodo{Title: "fix", Priority: "High", File: "internal/x.go", Line: 42, Agent: " oracle "},
			Todo{Title: "fix", Level: LevelTask, Priority: "high", File: "internal/x.go", Line: 42, Agent: "oracle"}, ""},
		{"file:line", NewTodo{Title: "fix", File: "a/b.go:7"}, Todo{Title: "fix", Level: LevelTask, File: "a/b.go", Line: 7}, ""},
		{"file:line with a line", NewTodo{Title: "fix", File: "a:b.go:7", Line: 3}, Todo{Title: "fix", Level: LevelTask, File: "a:b.go:7", Line: 3}, ""},
		{"bad priority", NewTodo{Title: "x", Priority: "urgent"}, Todo{}, "not one of critical"},
		{"line without file", NewTodo{Title: "x", Line: 3}, Todo{}, "a line needs a file"},
		{"negative line", NewTodo{Title: "x", File: "f", Line: -1}, Todo{}, "not a line number"},
		{"file with a newline", NewTodo{Title: "x", File: "a\nb"}, Todo{}, "control character"},
		{"long agent", NewTodo{Title: "x", Agent: strings.Repeat("a", 101)}, Todo{}, "at most 100"},
	} {
		p := base()
		got, err := p.AddTodo(tc.in, now)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			if len(p.Todos) != 4 || p.NextID != 4 {
				t.Errorf("%s: a refused todo changed the project", tc.name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got.ID != 5 || got.Status != TodoPending || got.Title != tc.want.Title || got.Level != tc.want.Level || got.Parent != tc.want.Parent ||
			got.Priority != tc.want.Priority || got.File != tc.want.File || got.Line != tc.want.Line || got.Agent != tc.want.Agent {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestSetStatus(t *testing.T) {
	p := &Project{}
	if _, err := p.AddTodo(NewTodo{Title: "x"}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id     int
		status string
		ok     bool
	}{{1, "done", true}, {1, "In_Progress", true}, {1, "finished", false}, {2, "done", false}} {
		if err := p.SetStatus(tc.id, tc.status, time.Time{}); (err == nil) != tc.ok {
			t.Errorf("SetStatus(%d, %q): %v", tc.id, tc.status, err)
		}
	}
	if p.Todos[0].Status != TodoInProgress {
		t.Errorf("status %q", p.Todos[0].Status)
	}
}
