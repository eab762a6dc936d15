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
	Task     int    `json:"task"`
	Title    string `json:"title"`
	Version  int    `json:"version"`
	Path     string `json:"path"`
	Approved bool   `json:"approved"`
	// Content is the plan's PlanHash, the one an approval pins.
	Content string `json:"content"`
	// ApprovedVersion is the version last approved when it is not this
	// plan as it is now; Changes what changed since (a unified diff).
	ApprovedVersion int         `json:"approved_version,omitempty"`
	Changes         string      `json:"changes,omitempty"`
	Current         int         `json:"current"` // the first phase not completed; 0: all are
	Phases          []phaseJSON `json:"phases"`
}

type phaseJSON struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	Status string `json:"status"`
	Verify string `json:"verify"`
	// FileStatus is the plan file's marker when it says something else
	// than atreides's record (a hand edit), which is what counts.
	FileStatus string `json:"file_status,omitempty"`
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
	version, p, plan, src, err := r.CurrentPlan(t)
	if err != nil {
		return planJSON{}, err
	}
	a := tasks.ApprovalOf(t, version, plan, src)
	v := planJSON{Task: t.Number, Title: t.Title, Version: version, Path: p, Approved: a.Approved, Content: a.Hash,
		ApprovedVersion: a.Since, Changes: a.Diff, Current: plan.Current(), Phases: []phaseJSON{}}
	for i, ph := range plan.Phases {
		v.Phases = append(v.Phases, phaseJSON{Number: i + 1, Title: ph.Title, Status: ph.Status, Verify: ph.Verify, FileStatus: ph.FileStatus})
	}
	return v, nil
}

func printPlan(io *command.IO, v planJSON) {
	approval := "not approved (atreides plan approve " + fmt.Sprint(v.Task) + ")"
	switch {
	case v.Approved:
		approval = "approved"
	case v.ApprovedVersion == v.Version:
		approval = "changed since approved: needs approval again (atreides plan approve " + fmt.Sprint(v.Task) + ")"
	}
	fmt.Fprintf(io.Out, "task %d: %s\nplan version %d: %s, %s\n", v.Task, command.Text(v.Title), v.Version, command.Text(v.Path), approval)
	if !v.Approved {
		// So that the user approves what they read, not what the agent
		// may write in its place meanwhile.
		fmt.Fprintf(io.Out, "content %s: approve this text only with atreides plan approve %d --content %s\n", v.Content[:12], v.Task, v.Content[:12])
	}
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
			fmt.Fprintf(io.Out, "     verify: %s\n", command.Text(ph.Verify))
		}
		if ph.FileStatus != "" {
			fmt.Fprintf(io.Out, "     the plan file says %s: not atreides's record, which counts (atreides plan phase-done %d %d)\n",
				tasks.Marker(ph.FileStatus), v.Task, ph.Number)
		}
	}
	if v.Current == 0 {
		fmt.Fprintln(io.Out, "every phase is completed")
	}
	if v.Changes != "" {
		fmt.Fprintf(io.Out, "changed since the approval of version %d:\n%s", v.ApprovedVersion, command.Text(v.Changes))
	}
}
