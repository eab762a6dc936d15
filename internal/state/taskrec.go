package state

import (
	"bytes"
	"fmt"

	"github.com/atreides-dev/atreides/internal/store"
)

// The task board is a record of its own (project/tasks.rec), not a
// section of the project record: a board of a thousand tasks is a few
// hundred kilobytes, and the project record is read, and often written,
// by every hook event. Only an event whose handlers declare GroupTasks or
// ask for it ([Loaded.LoadTasks]), and the commands, read it.
const (
	keyTasks     = "tasks"
	kindTasks    = 'T'
	TasksVersion = 1
)

// tasksSections: the board, then the plan approvals' content hashes, a
// section of their own so that a board written before them reads as it
// was (no approval pinned to content) and an older build keeps them.
var tasksSections = []section[Tasks]{newSection(0, "tasks", (*Tasks).fields), newSection(0, "approvals", (*Tasks).approvals)}

// loadTasks reads the board; none stored gives an empty one. A board that
// does not decode is an error, never replaced by an empty one: it is the
// one copy of the tasks (doctor reports it; the generated state.json
// holds the last good copy for a person to look at).
func loadTasks(tx *store.Tx) (*Tasks, []byte, error) {
	b, err := tx.Record(setProject, keyTasks)
	if err != nil {
		return nil, nil, &DamagedError{Kind: "tasks", Key: keyTasks, Err: err}
	}
	t, err := decodeTasks(b)
	if err != nil {
		return nil, nil, &DamagedError{Kind: "tasks", Key: keyTasks, Err: err}
	}
	return t, b, nil
}

func decodeTasks(b []byte) (*Tasks, error) {
	t := &Tasks{}
	if len(b) == 0 {
		return t, nil
	}
	v, err := recordVersion(b, kindTasks)
	if err != nil {
		return nil, fmt.Errorf("decode task board: %w", err)
	}
	if v > TasksVersion {
		return nil, fmt.Errorf("decode task board: version %d: %w (this one reads up to %d)", v, ErrNewer, TasksVersion)
	}
	sec, err := splitRecord(b, kindTasks, TasksVersion)
	if err == nil {
		err = decodeSections(tasksSections, &sec, AllGroups, t)
	}
	if err != nil {
		return nil, fmt.Errorf("decode task board: %w", err)
	}
	return t, nil
}

func encodeTasks(t *Tasks, sizeHint int) []byte {
	b, _ := encodeRecord(kindTasks, TasksVersion, tasksSections, t, AllGroups, &raw{}, make([]byte, 0, sizeHint+sizeHint/8))
	return b
}

// saveTasks writes the board when its encoding changed from stored.
func saveTasks(tx *store.Tx, t *Tasks, stored []byte) error {
	if stored == nil && t.empty() {
		return nil // no board yet: no file for it
	}
	b := encodeTasks(t, len(stored))
	if bytes.Equal(b, stored) {
		return nil
	}
	if err := tx.PutRecord(setProject, keyTasks, b); err != nil {
		return fmt.Errorf("save task board: %w", err)
	}
	return nil
}

// empty reports whether the board holds nothing.
func (t *Tasks) empty() bool {
	return t.Next == 0 && len(t.List) == 0 && t.NextError == 0 && len(t.Errors) == 0 && t.Gen == 0 && t.Files == (TaskFiles{})
}
