package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/view"
)

// printDelegations prints a session's subagents: path, state and outcome.
func printDelegations(io *IO, ds []view.StatusDelegation) {
	if len(ds) == 0 {
		return
	}
	fmt.Fprintln(io.Out, "  delegations:")
	for _, d := range ds {
		what := "running since " + d.Started.Local().Format(time.TimeOnly)
		if d.Stopped != nil {
			what = fmt.Sprintf("%s after %s", d.Outcome, d.Stopped.Sub(d.Started).Round(time.Second))
		}
		if d.Deadline != nil {
			what += ", deadline " + d.Deadline.Local().Format(time.TimeOnly)
		}
		if d.Overdue {
			what += " (overdue)"
		}
		fmt.Fprintf(io.Out, "    %s  %s  %s\n", strings.Join(d.Path, " → "), d.ID, what)
		if d.Detail != "" {
			fmt.Fprintf(io.Out, "      %s\n", oneLine(d.Detail, 100))
		}
		if d.Partial != "" {
			fmt.Fprintf(io.Out, "      last message: %s\n", oneLine(d.Partial, 100))
		}
	}
}
