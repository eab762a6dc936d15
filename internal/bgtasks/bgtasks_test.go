package bgtasks

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/binrec"
)

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

// TestTaskChoiceRoundTrips: the fields added after the first records (a
// task's tools, model, operation, timeout and fix-ups) survive a save and
// a load; TestGoldenRecordsRoundTrip (package state) holds that a record
// without them is written as before.
func TestTaskChoiceRoundTrips(t *testing.T) {
	b := Background{NextID: 2, Tasks: []Task{{ID: "bg-1", Status: "failed", Tools: "read-only", Model: "m1", Operation: "research", TimedOut: true, Fixups: 1}, {ID: "bg-2"}}}
	w := &binrec.Writer{}
	b.fields(binrec.Encoder(w))
	var got Background
	c := binrec.Decoder(string(w.B))
	got.fields(c)
	if err := c.R.Err(); err != nil {
		t.Fatal(err)
	}
	if g := got.Tasks[0]; g.Tools != "read-only" || g.Model != "m1" || g.Operation != "research" || !g.TimedOut || g.Fixups != 1 || got.Tasks[1].ID != "bg-2" {
		t.Errorf("round trip: %+v", got.Tasks)
	}
}
