package tasks

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/taskboard"
)

// The kill test re-runs this test binary as a helper process: with
// helperEnv set, TestMain runs the helper instead of the tests.
const (
	helperEnv    = "ATREIDES_TASKS_HELPER"
	helperDirEnv = "ATREIDES_TASKS_HELPER_DIR"
)

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "loop" {
		os.Exit(changeLoop(os.Getenv(helperDirEnv)))
	}
	os.Exit(m.Run())
}

// changeLoop changes the board of the project at root back to back until
// it is killed: adds a task, then moves one along, so every file changes.
func changeLoop(root string) int {
	r := Open(root, Options{})
	ctx := context.Background()
	for i := 0; ; i++ {
		err := r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
			if i%2 == 0 || len(b.List) == 0 {
				_, err := Add(b, NewTask{Title: fmt.Sprint("task ", i), Description: "some text"}, now)
				return err
			}
			t := &b.List[len(b.List)-1]
			_, err := SetStatus(b, t.Number, InProgress, "", now)
			return err
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if i == 0 {
			fmt.Println("ready")
		}
	}
}
