package work

import (
	"context"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// errorsOptions are the flags of 'atreides errors'.
type errorsOptions struct {
	typ    string
	all    bool
	asJSON bool
}

func NewErrorsCmd(io *command.IO) *cobra.Command {
	o := &errorsOptions{}
	cmd := &cobra.Command{
		Use:   "errors",
		Short: "the error log: what went wrong, how often, whether the fix held",
		Long: `List the project's error log (errors.json in the specs directory), grouped
by type and cause: how often each error was seen, first and last, its
severity, and where its fix stands: open, planned (a fix task exists),
fixed and held since when, or recurred after the fix. Errors fixed and
not seen since are left out unless --all is given.

Errors the hooks saw (3-strike escalations, failed delegations) wait in
their session until its turn ends; this command records every session's
first, so a session that was killed loses nothing.

'atreides errors plan' creates a task to fix errors; 'atreides errors
resolve' records a fix made without one.`,
		Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.StringVar(&o.typ, "type", "", "only errors of this type")
	f.BoolVarP(&o.all, "all", "a", false, "include errors fixed and not seen since")
	f.BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	cmd.AddCommand(newErrorsPlanCmd(io), newErrorsResolveCmd(io))
	return cmd
}

// errorJSON is one entry of the error log in 'errors --json'.
type errorJSON struct {
	ID       int        `json:"id"`
	Type     string     `json:"type"`
	Severity string     `json:"severity"`
	Cause    string     `json:"cause"`
	Message  string     `json:"message"`
	Count    int        `json:"count"`
	First    time.Time  `json:"first_seen"`
	Last     time.Time  `json:"last_seen"`
	Command  string     `json:"command"`
	Task     int        `json:"task"` // 0: none
	Agent    string     `json:"agent"`
	Session  string     `json:"session"`
	Fix      string     `json:"fix_status"` // "", planned, fixed, recurred
	FixRefs  []string   `json:"fix_refs"`
	Fixed    *time.Time `json:"fixed"` // null: never
	Recurred int        `json:"recurred_after_fix"`
	// Held is true while a recorded fix holds (fixed, not seen since).
	Held bool `json:"held"`
}

func errorView(e taskboard.TaskError) errorJSON {
	return errorJSON{
		ID: e.Number, Type: e.Type, Severity: e.Severity, Cause: e.Cause, Message: e.Message, Count: e.Count,
		First: e.First, Last: e.Last, Command: e.Context.Command, Task: e.Context.Task, Agent: e.Context.Agent,
		Session: e.Context.Session, Fix: e.Fix, FixRefs: view.List(e.FixRefs), Fixed: view.TimeOrNil(e.Fixed), Recurred: e.Recurred,
		Held: e.Fix == tasks.FixFixed,
	}
}

// errorsBoard opens the board of the project at the working directory
// with every session's waiting errors recorded on it.
func errorsBoard(io *command.IO) (*tasks.Repo, error) {
	r, err := taskRepo(io)
	if err != nil {
		return nil, err
	}
	if _, err := r.DrainOutboxes(context.Background()); err != nil {
		return nil, fmt.Errorf("recording the sessions' errors: %w", err)
	}
	return r, nil
}

func (o *errorsOptions) run(io *command.IO) error {
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	if !command.HasState(root) {
		// Nothing was ever recorded, and a look must not create the state.
		return o.print(io, nil, 0)
	}
	r, err := errorsBoard(io)
	if err != nil {
		return err
	}
	var b taskboard.Tasks
	if err := r.View(context.Background(), func(t *taskboard.Tasks) error { b = *t; return nil }); err != nil {
		return err
	}
	typ := tasks.ErrorType(o.typ)
	var shown []taskboard.TaskError
	held := 0
	for _, e := range tasks.ErrorsByType(b.Errors) {
		switch {
		case typ != "" && e.Type != typ:
		case e.Fix == tasks.FixFixed && !o.all:
			held++
		default:
			shown = append(shown, e)
		}
	}
	return o.print(io, shown, held)
}

// print shows the errors, and how many fixed ones were left out.
func (o *errorsOptions) print(io *command.IO, shown []taskboard.TaskError, held int) error {
	if o.asJSON {
		out := make([]errorJSON, 0, len(shown))
		for _, e := range shown {
			out = append(out, errorView(e))
		}
		return command.PrintJSON(io, out)
	}
	if err := printErrors(io, shown); err != nil {
		return err
	}
	if held > 0 {
		fmt.Fprintf(io.Out, "%d fixed errors not seen since their fix (--all shows them)\n", held)
	}
	return nil
}

// printErrors lists errors, one a row, sorted by type: how often and
// when each was seen, and where its fix stands.
func printErrors(io *command.IO, errs []taskboard.TaskError) error {
	if len(errs) == 0 {
		fmt.Fprintln(io.Out, "no errors recorded")
		return nil
	}
	st := command.StyleOf(io)
	tb := command.NewTable(io, io.Out, "id", "type", "severity", "cause", "seen", "first", "last", "fix", "message").Flex(3, 8)
	for _, e := range errs {
		times := "once"
		if e.Count > 1 {
			times = fmt.Sprintf("%d times", e.Count)
		}
		msg := ""
		if e.Message != e.Cause {
			msg = e.Message
		}
		tb.AddPainted(command.NumberCell(io, e.Number), st.Bold).Add(e.Type).Add(e.Severity).Add(e.Cause).Add(times)
		tb.Add(shortTime(e.First)).Add(shortTime(e.Last)).Add(tasks.FixState(&e)).AddPainted(msg, st.Dim).EndRow()
	}
	return tb.Render()
}

func shortTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") }
