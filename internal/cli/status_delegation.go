package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
)

// delegationJSON is one subagent in `status --json`: every key is always
// present (docs/json.md).
type delegationJSON struct {
	ID     string   `json:"id"`
	Type   string   `json:"type"`
	Parent string   `json:"parent"` // "" is the main agent
	Depth  int      `json:"depth"`
	Path   []string `json:"path"`  // agent types from "main" down to this one
	State  string   `json:"state"` // running | finished
	// Started, Deadline (null: none) and Stopped (null while running).
	Started  time.Time  `json:"started"`
	Deadline *time.Time `json:"deadline"`
	Stopped  *time.Time `json:"stopped"`
	// Overdue is set once it was found running past its deadline.
	Overdue bool `json:"overdue"`
	// Outcome is "" while running, then ok, completed, partial, failed,
	// blocked or invalid_return; Detail says what was wrong.
	Outcome string `json:"outcome"`
	Detail  string `json:"detail"`
	// Partial is its last message when it was found overdue.
	Partial string `json:"partial"`
}

func delegationViews(ds []state.Delegation) []delegationJSON {
	out := make([]delegationJSON, 0, len(ds))
	for _, d := range ds {
		v := delegationJSON{ID: d.ID, Type: d.Type, Parent: d.Parent, Depth: d.Depth, Path: nonNil(d.Path), State: "running",
			Started: d.Started, Overdue: !d.Overdue.IsZero(), Outcome: d.Outcome, Detail: d.Detail, Partial: d.Partial}
		if !d.Deadline.IsZero() {
			v.Deadline = &d.Deadline
		}
		if !d.Running() {
			v.State, v.Stopped = "finished", &d.Stopped
		}
		out = append(out, v)
	}
	return out
}

// printDelegations prints a session's subagents: path, state and outcome.
func printDelegations(io *IO, ds []delegationJSON) {
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
