package view_test

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/view"
)

func TestTodoDetails(t *testing.T) {
	for _, tc := range []struct {
		todo view.Todo
		want string
	}{
		{view.Todo{Level: "task"}, "task"},
		{view.Todo{Level: "epic", Priority: "high"}, "epic, high"},
		{view.Todo{Level: "task", File: "main.go"}, "task, main.go"},
		{view.Todo{Level: "subtask", Priority: "low", File: "a/b.go", Line: 12, Agent: "explore"}, "subtask, low, a/b.go:12, agent explore"},
	} {
		if got := tc.todo.Details(); got != tc.want {
			t.Errorf("%+v: Details() = %q, want %q", tc.todo, got, tc.want)
		}
	}
}
