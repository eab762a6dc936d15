package work

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// statusOptions are the flags of 'atreides status'.
type statusOptions struct {
	asJSON  bool
	session string
	calls   int
}

func NewStatusCmd(io *command.IO) *cobra.Command {
	o := &statusOptions{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "show this project's sessions: counters and last tool calls",
		Long: `Show the sessions atreides has seen in this project, newest first: host,
counters and the last tool calls.`,
		Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	f.StringVarP(&o.session, "session", "s", "", "show only this session")
	f.IntVarP(&o.calls, "calls", "n", 10, "how many recent tool calls to show per session")
	return cmd
}

func (o *statusOptions) run(io *command.IO) error {
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	doc, err := view.ReadStatus(context.Background(), root, view.StatusQuery{Session: o.session, Calls: o.calls, StaleAfter: anchorStaleAfter(root)}, time.Now())
	if err != nil {
		return err
	}
	if o.session != "" && len(doc.Sessions) == 0 && len(doc.Unreadable) == 0 {
		return fmt.Errorf("no session %q in %s", o.session, root)
	}
	if o.asJSON {
		return command.PrintJSON(io, doc)
	}
	printStatus(io, doc)
	return nil
}

func printStatus(io *command.IO, doc *view.Status) {
	st := command.StyleOf(io)
	fmt.Fprintf(io.Out, "project %s\n", doc.Project)
	printStatusBackground(io, doc.Background)
	if doc.TraceMissing > 0 {
		fmt.Fprintf(io.Out, "trace ledger: %d record(s) missing (queued, appended with the next change; see atreides trace verify)\n", doc.TraceMissing)
	}
	for _, u := range doc.Unreadable {
		fate := "moved to the quarantine by the next event; see atreides doctor"
		if u.Newer {
			fate = "left as it is; upgrade atreides to read it"
		}
		fmt.Fprintf(io.Out, "unreadable %s record %s: %s (%s)\n", u.Kind, u.ID, u.Error, fate)
	}
	if len(doc.Sessions) == 0 && len(doc.Unreadable) == 0 {
		fmt.Fprintln(io.Out, "no sessions yet: atreides records a session once an agent host calls its hooks ('atreides install claude').")
	}
	for _, s := range doc.Sessions {
		state := "active"
		if s.Ended != "" {
			state = "ended (" + s.Ended + ")"
		}
		fmt.Fprintf(io.Out, "\n%s  %s  %s\n", st.Bold("session "+s.ID), s.Host, state)
		fmt.Fprintf(io.Out, "  started %s, last event %s\n", s.Started.Local().Format(time.DateTime), s.Updated.Local().Format(time.DateTime))
		c := s.Counters
		fmt.Fprintf(io.Out, "  %d tool calls (%d denied, %d asked, %d failed), %d prompts, %d stops, %d compactions\n",
			c.ToolCalls, c.Denied, c.Asked, c.Failed, c.Prompts, c.Stops, c.Compacts)
		printOrchestration(io, &s)
		if len(s.LastCalls) == 0 {
			continue
		}
		fmt.Fprintln(io.Out, "  last tool calls:")
		tw := tabwriter.NewWriter(io.Out, 0, 2, 2, ' ', 0)
		for _, call := range s.LastCalls {
			outcome := call.Outcome
			if call.Rule != "" {
				outcome += " (" + call.Rule + ")"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", call.Time.Local().Format(time.TimeOnly), call.Raw, st.Verdict(outcome), command.OneLine(call.Summary, 70))
		}
		tw.Flush()
	}
	if open := openTodos(doc.Todos); len(open) > 0 {
		fmt.Fprintf(io.Out, "\ntodos (%d open):\n", len(open))
		printTodoTreeIndent(io, open, "  ")
	}
	if len(doc.Anchors) > 0 {
		fmt.Fprintf(io.Out, "\nanchors (%d):\n", len(doc.Anchors))
		printAnchors(io, doc.Anchors, "  ")
	}
}

// printOrchestration prints a session's phase with its recent history,
// its strikes, the agent's own todos and the stop gate's state.
func printOrchestration(io *command.IO, s *view.StatusSession) {
	if c := s.Context; c.Total > 0 || c.Dropped > 0 {
		fmt.Fprintf(io.Out, "  context: %s\n", view.ContextLine(c))
	}
	if s.Phase != "" {
		fmt.Fprintf(io.Out, "  phase: %s\n", s.Phase)
		for _, t := range s.Transitions {
			from := t.From
			if from == "" {
				from = "start"
			}
			fmt.Fprintf(io.Out, "    %s  %s → %s  (%s)\n", t.Time.Local().Format(time.TimeOnly), from, t.To, command.OneLine(t.Cause, 60))
		}
	}
	if len(s.Strikes) > 0 {
		fmt.Fprintln(io.Out, "  strikes:")
		for _, k := range s.Strikes {
			last := ""
			if n := len(k.Errors); n > 0 {
				last = ": " + command.OneLine(k.Errors[n-1].Excerpt, 60)
			}
			fmt.Fprintf(io.Out, "    %d× %s %s (%s%s)\n", k.Count, k.Tool, command.OneLine(k.Target, 60), k.Class, last)
		}
	}
	if len(s.AgentTodos) > 0 {
		fmt.Fprintln(io.Out, "  agent todos (the host's todo tools):")
		for _, t := range s.AgentTodos {
			mark := map[string]string{"pending": "[ ]", "in_progress": "[~]", "completed": "[x]"}[t.Status]
			if mark == "" {
				mark = "[?]"
			}
			fmt.Fprintf(io.Out, "    %s %s\n", mark, command.OneLine(t.Content, 70))
		}
	}
	if s.StopBlocks > 0 || s.Stop.Stagnant > 0 || s.Stop.GaveUp != "" {
		fmt.Fprintf(io.Out, "  stop gate: %d block(s) in a row, %d without progress", s.StopBlocks, s.Stop.Stagnant)
		if s.Stop.GaveUp != "" {
			fmt.Fprintf(io.Out, "; last let go: %s", s.Stop.GaveUp)
		}
		fmt.Fprintln(io.Out)
	}
	printDelegations(io, s.Delegations)
	if s.Compacted != nil {
		fmt.Fprintf(io.Out, "  last compaction snapshot: %s\n", s.Compacted.Local().Format(time.DateTime))
	}
}

func openTodos(ts []view.Todo) []view.Todo {
	var out []view.Todo
	for _, t := range ts {
		if t.Open() {
			out = append(out, t)
		}
	}
	return out
}

// printStatusBackground lists the pending background tasks and the last
// ended ones.
func printStatusBackground(io *command.IO, views []view.BgTask) {
	if len(views) == 0 {
		return
	}
	fmt.Fprintf(io.Out, "background tasks (%d; atreides bg show ID):\n", len(views))
	const shown = 10
	for _, v := range views[max(len(views)-shown, 0):] {
		printBg(io, v, "  ")
	}
}

// printDelegations prints a session's subagents: path, state and outcome.
func printDelegations(io *command.IO, ds []view.StatusDelegation) {
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
			fmt.Fprintf(io.Out, "      %s\n", command.OneLine(d.Detail, 100))
		}
		if d.Partial != "" {
			fmt.Fprintf(io.Out, "      last message: %s\n", command.OneLine(d.Partial, 100))
		}
	}
}
