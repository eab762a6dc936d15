package main

import (
	"context"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/rogpeppe/go-internal/testscript"
)

// seedTask adds a task to the board of the project in the script's
// directory (seedtask TITLE...), for the plan scripts, so that they do
// not depend on another command group's output.
func seedTask(ts *testscript.TestScript, neg bool, args []string) {
	root := ts.Getenv("WORK")
	r := tasks.Open(root, tasks.LoadOptions(root))
	err := r.Update(context.Background(), func(b *state.Tasks, now time.Time) error {
		_, err := tasks.Add(b, tasks.NewTask{Title: strings.Join(args, " ")}, now)
		return err
	})
	if (err != nil) != neg {
		ts.Fatalf("seedtask: %v", err)
	}
}
