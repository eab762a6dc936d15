package work

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// errorsPlanOptions are the arguments of 'atreides errors plan'.
type errorsPlanOptions struct {
	typ    string
	asJSON bool
}

func newErrorsPlanCmd(io *command.IO) *cobra.Command {
	o := &errorsPlanOptions{}
	cmd := &cobra.Command{
		Use:   "plan [ID...]",
		Short: "create a task to fix errors, linked to them",
		Long: `Create one task to fix the errors named, several at once (or, with --type,
every error of that type without a fix under way; with neither, every
error without a fix under way). The task describes them and takes the
worst severity as its priority; the errors show the task as their
planned fix, and become fixed when it is completed. The generated files
are then committed alone, as "errors: create fix plan for N <type>
errors (task M)" (tasks.commits); a refused commit fails nothing.`,
		// Checked with the arguments, not when it runs, so that a slash
		// command's usage line is checked by the parser alone.
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 && o.typ != "" {
				return command.Usagef("errors plan takes error ids or --type, not both")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error { return o.run(io, args) },
	}
	cmd.Flags().StringVar(&o.typ, "type", "", "plan a fix for every open error of this type")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the new task as JSON")
	return cmd
}

// errorsPlanJSON is what 'errors plan --json' prints.
type errorsPlanJSON struct {
	Task     int    `json:"task"`
	Title    string `json:"title"`
	Priority string `json:"priority"`
	Errors   []int  `json:"errors"`
	// Commit is the commit of the generated files; "" when none was made.
	Commit string `json:"commit"`
}

func (o *errorsPlanOptions) run(io *command.IO, args []string) error {
	var ids []int
	if len(args) > 0 {
		var err error
		if ids, err = parseIDs(args, "errors plan", "error"); err != nil {
			return err
		}
	}
	r, err := errorsBoard(io)
	if err != nil {
		return err
	}
	var made errorsPlanJSON
	var msg string
	err = r.Update(context.Background(), func(b *taskboard.Tasks, now time.Time) error {
		if len(ids) == 0 {
			if ids = unplanned(b, tasks.ErrorType(o.typ)); len(ids) == 0 {
				if o.typ == "" {
					return fmt.Errorf("no error waits for a fix (atreides errors --all lists them all)")
				}
				return fmt.Errorf("no error of type %s waits for a fix", tasks.ErrorType(o.typ))
			}
		}
		t, err := tasks.PlanFix(b, ids, now)
		if err != nil {
			return err
		}
		made = errorsPlanJSON{Task: t.Number, Title: t.Title, Priority: t.Priority, Errors: t.Errors}
		msg = tasks.FixPlanMessage(b, t.Errors, t.Number)
		return nil
	})
	if err != nil {
		return err
	}
	res, err := r.CommitFiles(context.Background(), made.Task, nil, func([]string) string { return msg })
	if err != nil {
		return err
	}
	made.Commit = res.Commit
	if o.asJSON {
		return command.PrintJSON(io, made)
	}
	fmt.Fprintf(io.Out, "task %d: %s (priority %s), to fix %s\n", made.Task, made.Title, made.Priority, errorList(made.Errors))
	if s := res.Summary(); s != "" {
		fmt.Fprintln(io.Err, s)
	}
	return nil
}

// unplanned are the errors of the type ("": of any type) with no fix
// under way: open or recurred.
func unplanned(b *taskboard.Tasks, typ string) []int {
	var ids []int
	for _, e := range b.Errors {
		if (typ == "" || e.Type == typ) && (e.Fix == "" || e.Fix == tasks.FixRecurred) {
			ids = append(ids, e.Number)
		}
	}
	return ids
}

func errorList(ids []int) string {
	s := make([]string, len(ids))
	for i, n := range ids {
		s[i] = strconv.Itoa(n)
	}
	if len(s) == 1 {
		return "error " + s[0]
	}
	return "errors " + strings.Join(s, ", ")
}
