package work

import (
	"context"
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/spf13/cobra"
)

// planApproveOptions are the arguments of 'atreides plan approve'.
type planApproveOptions struct {
	task    string
	content string
	asJSON  bool
}

// planApproveJSON is what 'plan approve --json' prints.
type planApproveJSON struct {
	Task    int    `json:"task"`
	Version int    `json:"version"`
	Content string `json:"content"`
	// Since is the version approved before when the plan differed from
	// it; Changes what changed (a unified diff).
	Since   int    `json:"changed_since_version,omitempty"`
	Changes string `json:"changes,omitempty"`
}

func newPlanApproveCmd(io *command.IO) *cobra.Command {
	o := &planApproveOptions{}
	cmd := &cobra.Command{
		Use:   "approve N",
		Short: "approve the current plan version of task N: its work may start",
		Long: `Approve the current plan version of task N: its work may start, and
'plan phase-done' may run the plan's "Verify:" commands (each still judged
by the guard). The approval is pinned to what the plan says (the sha256 of
its text without the phase markers, which atreides writes from its store,
and without blank-line and line-end whitespace): once the plan says
something else, the writes outside the specs directory are refused and its
Verify lines no longer run until it is approved again. When a plan was
approved before, what changed since is shown first, as a diff.

With --content, the approval is refused unless the plan's content is
still the one 'plan show' named when the user read it: an agent that
rewrote the plan in between is caught.

Only the user approves: a person at a terminal. An agent's command is
refused, and so is one with no terminal while a session works in the
project (an agent's shell with its environment stripped).`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.task = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().StringVar(&o.content, "content", "", "approve only while the plan's content is this one (as 'plan show' names it)")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the approval as JSON")
	return cmd
}

func (o *planApproveOptions) run(io *command.IO) error {
	r, n, err := taskArg(io, o.task)
	if err != nil {
		return err
	}
	if err := tasks.MayApprove(context.Background(), r, command.Actor(io)); err != nil {
		return err
	}
	if c := o.content; c != "" && (len(c) < minContent || strings.Trim(c, "0123456789abcdef") != "") {
		return command.Usagef("--content is the plan's content as 'atreides plan show %d' names it: %d or more hex digits, not %q", n, minContent, c)
	}
	a, err := r.Approve(context.Background(), n, o.content)
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, planApproveJSON{Task: n, Version: a.Version, Content: a.Hash, Since: a.Since, Changes: a.Diff})
	}
	// What changed since the approval before, so that the user sees what
	// they approve now; then what the approval lets 'plan phase-done'
	// run: an edit of the plan takes the approval back.
	printChange(io, n, a)
	fmt.Fprintf(io.Out, "task %d: plan version %d approved (content %s)\n", n, a.Version, a.Hash[:12])
	for k, ph := range a.Plan.Phases {
		if ph.Verify != "" {
			fmt.Fprintf(io.Out, "  phase %d verifies with: %s\n", k+1, command.Text(ph.Verify))
		}
	}
	return nil
}

// minContent is the shortest --content taken: short enough to type,
// long enough that the agent cannot write another plan of that prefix.
const minContent = 12

// printChange shows how the plan differs from the one last approved.
func printChange(io *command.IO, n int, a tasks.Approval) {
	switch {
	case a.Approved || a.Since == 0:
	case !a.Kept:
		fmt.Fprintf(io.Out, "task %d: the plan changed since version %d was approved (the approved text was not kept: approved before atreides kept it)\n", n, a.Since)
	case a.Diff == "":
		fmt.Fprintf(io.Out, "task %d: version %d says what version %d said when approved\n", n, a.Version, a.Since)
	default:
		fmt.Fprintf(io.Out, "task %d: changed since the approval of version %d:\n%s", n, a.Since, command.Text(a.Diff))
		if !strings.HasSuffix(a.Diff, "\n") {
			fmt.Fprintln(io.Out)
		}
	}
}
