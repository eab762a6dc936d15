package work

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// planJSON is a task's current plan, as 'plan show --json' prints it.
type planJSON struct {
	Task     int         `json:"task"`
	Title    string      `json:"title"`
	Version  int         `json:"version"`
	Path     string      `json:"path"`
	Approved bool        `json:"approved"`
	Current  int         `json:"current"` // the first phase not completed; 0: all are
	Phases   []phaseJSON `json:"phases"`
}

type phaseJSON struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	Status string `json:"status"`
	Verify string `json:"verify"`
}

// planShowOptions are the arguments of 'atreides plan show'.
type planShowOptions struct {
	task   string
	asJSON bool
}

func newPlanShowCmd(io *command.IO) *cobra.Command {
	o := &planShowOptions{}
	cmd := &cobra.Command{
		Use:   "show N",
		Short: "show the current plan of task N: its phases and where it stands",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.task = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the plan as JSON")
	return cmd
}

func (o *planShowOptions) run(io *command.IO) error {
	v, err := currentPlan(io, o.task)
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, v)
	}
	printPlan(io, v)
	return nil
}

// currentPlan reads the current plan of the task arg names.
func currentPlan(io *command.IO, arg string) (planJSON, error) {
	r, n, err := taskArg(io, arg)
	if err != nil {
		return planJSON{}, err
	}
	t, err := r.Task(context.Background(), n)
	if err != nil {
		return planJSON{}, err
	}
	return planView(r, &t)
}

func planView(r *tasks.Repo, t *taskboard.Task) (planJSON, error) {
	version, p, plan, _, err := r.CurrentPlan(t)
	if err != nil {
		return planJSON{}, err
	}
	v := planJSON{Task: t.Number, Title: t.Title, Version: version, Path: p, Approved: t.Approved == version,
		Current: plan.Current(), Phases: []phaseJSON{}}
	for i, ph := range plan.Phases {
		v.Phases = append(v.Phases, phaseJSON{Number: i + 1, Title: ph.Title, Status: ph.Status, Verify: ph.Verify})
	}
	return v, nil
}

func printPlan(io *command.IO, v planJSON) {
	approval := "not approved (atreides plan approve " + fmt.Sprint(v.Task) + ")"
	if v.Approved {
		approval = "approved"
	}
	fmt.Fprintf(io.Out, "task %d: %s\nplan version %d: %s, %s\n", v.Task, command.Text(v.Title), v.Version, command.Text(v.Path), approval)
	if len(v.Phases) == 0 {
		fmt.Fprintln(io.Out, "no phases yet (\"## Phase 1: title [NOT STARTED]\" headings)")
		return
	}
	for _, ph := range v.Phases {
		cur := "  "
		if ph.Number == v.Current {
			cur = "> "
		}
		fmt.Fprintf(io.Out, "%s%d. %s %s\n", cur, ph.Number, tasks.Marker(ph.Status), command.Text(ph.Title))
		if ph.Verify != "" {
			fmt.Fprintf(io.Out, "     verify: %s\n", ph.Verify)
		}
	}
	if v.Current == 0 {
		fmt.Fprintln(io.Out, "every phase is completed")
	}
}
