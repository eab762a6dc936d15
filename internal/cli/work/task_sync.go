package work

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

const taskSyncAbout = `Compare TODO.md, state.json and errors.json in the specs directory with what
the task store generates, and say how they differ: for a hand-edited TODO.md, a
diff of the edit against the generated text. The store is the truth; the files
are never read back. With --write, write them again from the store (a
hand-edited TODO.md is first kept in the specs directory's backup/).
Exit 3 when the files differ and --write was not given.`

// taskSyncOptions are the flags of 'atreides task sync'.
type taskSyncOptions struct {
	write, asJSON bool
}

type taskSyncJSON struct {
	Generation int              `json:"generation"`
	Written    bool             `json:"written"`
	Files      []tasks.FileDiff `json:"files"`
	Problems   []tasks.Problem  `json:"problems"`
}

func newTaskSyncCmd(io *command.IO) *cobra.Command {
	o := &taskSyncOptions{}
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "show how the task files differ from the store, or write them again",
		Long:  taskSyncAbout,
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.write, "write", false, "write the files again from the store")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the comparison as JSON")
	return cmd
}

func (o *taskSyncOptions) run(io *command.IO) error {
	r, err := taskRepo(io)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if o.write {
		err = r.Regenerate(ctx)
	} else {
		err = r.Recover(ctx)
	}
	if err != nil {
		return fmt.Errorf("task files: %w", err)
	}
	out := taskSyncJSON{Written: o.write}
	var failed string
	err = r.View(ctx, func(b *taskboard.Tasks) error {
		out.Generation, out.Files, out.Problems = b.Gen, r.Diff(b), r.Check(b)
		failed = b.Files.Err
		return nil
	})
	if err != nil {
		return err
	}
	if o.write && failed != "" {
		// The store keeps the failure for doctor and the next command.
		return fmt.Errorf("task files not written: %s", failed)
	}
	if out.Generation == 0 && differing(out.Files) == len(out.Files) && !o.write {
		fmt.Fprintln(io.Out, "no tasks yet: nothing to compare")
		return nil
	}
	out.Problems = view.List(out.Problems)
	if o.asJSON {
		if err := command.PrintJSON(io, out); err != nil {
			return err
		}
	} else {
		printTaskSync(io, &out)
	}
	if n := differing(out.Files); n > 0 && !o.write {
		return &command.ProblemsError{N: n}
	}
	return nil
}

func differing(fs []tasks.FileDiff) int {
	n := 0
	for _, f := range fs {
		if f.Status != "same" {
			n++
		}
	}
	return n
}

func printTaskSync(io *command.IO, out *taskSyncJSON) {
	if out.Written {
		fmt.Fprintf(io.Out, "wrote the task files of generation %d\n", out.Generation)
	}
	for _, f := range out.Files {
		switch f.Status {
		case "same":
			fmt.Fprintf(io.Out, "%s: as the store generates it (generation %d)\n", f.Path, out.Generation)
		case "missing":
			fmt.Fprintf(io.Out, "%s: missing ('atreides task sync --write' writes it)\n", f.Path)
		case "refused":
			fmt.Fprintf(io.Out, "%s: %s\n", f.Path, f.Diff)
		default:
			fmt.Fprintf(io.Out, "%s: differs from what the store generates\n", f.Path)
			if f.Diff != "" {
				fmt.Fprint(io.Out, f.Diff)
			}
		}
	}
	for _, p := range out.Problems {
		fmt.Fprintf(io.Out, "%s: %s\n", p.Kind, p.Text)
	}
	if !out.Written && differing(out.Files) > 0 {
		fmt.Fprintln(io.Out, "the store is the truth: 'atreides task sync --write' writes the files again (a hand-edited TODO.md is kept in backup/ first); change tasks with 'atreides task ...'")
	}
}
