package bgtasks

import "testing"

// TestTaskFindsByIDInPlace: Task returns the task with the id, one the
// caller changes in place (the runners finish it so), and nil for an id
// no task has.
func TestTaskFindsByIDInPlace(t *testing.T) {
	b := Background{NextID: 3, Tasks: []Task{{ID: "bg-1"}, {ID: "bg-2"}}}
	for _, tc := range []struct {
		id    string
		found bool
	}{
		{"bg-1", true},
		{"bg-2", true},
		{"bg-3", false},
		{"", false},
	} {
		got := b.Task(tc.id)
		if (got != nil) != tc.found || got != nil && got.ID != tc.id {
			t.Errorf("Task(%q) = %+v", tc.id, got)
		}
	}
	b.Task("bg-2").Status = "completed"
	if b.Tasks[1].Status != "completed" {
		t.Error("Task returned a copy")
	}
}
