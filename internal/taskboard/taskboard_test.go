package taskboard

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// TestBoardSavedApart: the board is saved with the project, in a record
// of its own, the approvals' hashes on their tasks, and read back whole;
// Task and Error find their entries in place, and nil for a number the
// board does not hold. (That a board with no approval pinned encodes as
// before approvals existed is TestGoldenRecordsRoundTrip's, in package
// state, over the committed tasks-plain record.)
func TestBoardSavedApart(t *testing.T) {
	st := store.Open(filepath.Join(t.TempDir(), ".atreides"))
	want := Tasks{Next: 4, NextError: 2, Gen: 7,
		List: []Task{{Number: 1, Title: "a"}, {Number: 2, Title: "b", Approved: 1, ApprovedHash: "h2"}, {Number: 3, Title: "c", Approved: 2, ApprovedHash: "h3",
			ApprovedText: "# Plan\n", PhaseVersion: 2, PhaseStatus: []string{"completed", "not_started"}}},
		Errors: []TaskError{{Number: 1, Type: "build_error", Cause: "x", Count: 2}}}
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			*Key.Of(p) = want
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	var got *Tasks
	err = st.View(context.Background(), func(tx *store.Tx) error {
		if b, err := tx.Record("project", "tasks"); err != nil || len(b) == 0 {
			t.Errorf("no record of its own: %v", err)
		}
		p, err := state.LoadProject(tx)
		if err == nil {
			got = Key.Read(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*got, want) {
		t.Fatalf("read back\n got %+v\nwant %+v", *got, want)
	}
	for _, tc := range []struct {
		n             int
		task, errFind bool
	}{{1, true, true}, {3, true, false}, {9, false, false}} {
		if tk := got.Task(tc.n); (tk != nil) != tc.task || tk != nil && tk != &got.List[tc.n-1] {
			t.Errorf("Task(%d) = %p", tc.n, tk)
		}
		if e := got.Error(tc.n); (e != nil) != tc.errFind {
			t.Errorf("Error(%d) = %+v", tc.n, e)
		}
	}
}
