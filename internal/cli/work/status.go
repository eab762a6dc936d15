package work

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// statusOptions are the flags of 'atreides status'.
type statusOptions struct {
	asJSON  bool
	verbose bool
	session string
	calls   int
}

func NewStatusCmd(io *command.IO) *cobra.Command {
	o := &statusOptions{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "show this project's sessions, one line each (-v: everything)",
		Long: `Show the sessions atreides has seen in this project, newest first, one line
each: its short id, host, phase, how long since its last event, its open
todos and the last decision on a tool call; then one line on what the
project holds (todos, background tasks, anchors).

-v shows everything: each session's counters, phase history, strikes,
todos, stop gate, subagents and last tool calls, and the project's todos,
background tasks and anchors. --session (an id, or the start of one, as
the list shows it) shows that one session in full.`,
		Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "show everything about each session")
	f.StringVarP(&o.session, "session", "s", "", "show only this session, in full (an id, or the start of one)")
	f.IntVarP(&o.calls, "calls", "n", 10, "how many recent tool calls to show per session")
	return cmd
}

func (o *statusOptions) run(io *command.IO) error {
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	id, err := command.ResolveSession(root, o.session)
	if errors.Is(err, command.ErrNoMatch) {
		return fmt.Errorf("no session %q in %s", o.session, root)
	} else if err != nil {
		return err
	}
	doc, err := view.ReadStatus(context.Background(), root, view.StatusQuery{Session: id, Calls: o.calls, StaleAfter: anchorStaleAfter(root)}, time.Now())
	if err != nil {
		return err
	}
	if id != "" && len(doc.Sessions) == 0 && len(doc.Unreadable) == 0 {
		return fmt.Errorf("no session %q in %s", o.session, root)
	}
	switch {
	case o.asJSON:
		return command.PrintJSON(io, doc)
	case o.verbose || id != "":
		printStatus(io, doc)
		return nil
	}
	return printStatusCompact(io, doc, time.Now())
}

// printStatusCompact prints one line per session and, on a terminal, the
// project and a line about its other items: what a glance at a few
// sessions needs. Problems (unreadable records, trace records missing)
// are always said in full.
func printStatusCompact(io *command.IO, doc *view.Status, now time.Time) error {
	tty := command.IsTTY(io)
	if tty {
		// Piped, the rows alone: a script cuts them.
		fmt.Fprintf(io.Out, "project %s\n", doc.Project)
	}
	printStatusProblems(io, doc)
	if len(doc.Sessions) == 0 && len(doc.Unreadable) == 0 {
		fmt.Fprintln(io.Out, noSessions)
	}
	st := command.StyleOf(io)
	tb := command.NewTable(io, io.Out, "session", "host", "state", "phase", "age", "todos", "last decision").Flex(6)
	ids := make([]string, len(doc.Sessions))
	for i, s := range doc.Sessions {
		ids[i] = s.ID
	}
	n := state.ShortLen(ids)
	for i := range doc.Sessions {
		s := &doc.Sessions[i]
		state := "active"
		if s.Ended != "" {
			state = "ended"
		}
		tb.AddPainted(command.IDCell(io, s.ID, n), st.Bold).Add(s.Host).Add(state).Add(cmp.Or(s.Phase, "-")).Add(age(now.Sub(s.Updated)))
		tb.Add(strconv.Itoa(sessionOpenTodos(doc.Todos, s))).AddPainted(lastDecision(s), st.Verdict)
		if err := tb.EndRow(); err != nil {
			return err
		}
	}
	if err := tb.Render(); err != nil {
		return err
	}
	if sum := projectSummary(doc); sum != "" && tty {
		fmt.Fprintln(io.Out, st.Dim(sum))
	}
	return nil
}

// noSessions is status's answer in a project no host has called yet.
const noSessions = "no sessions yet: atreides records a session once an agent host calls its hooks ('atreides install claude')."

// sessionOpenTodos counts what holds a session's stop: the atreides todos
// it opened and the open items of its host's own todo list.
func sessionOpenTodos(todos []view.Todo, s *view.StatusSession) int {
	n := 0
	for _, t := range todos {
		if t.Session == s.ID && t.Open() {
			n++
		}
	}
	for _, t := range s.AgentTodos {
		if t.Open() {
			n++
		}
	}
	return n
}

// lastDecision is the verdict on the session's last tool call and the rule
// that gave it, else the tool and what it ran.
func lastDecision(s *view.StatusSession) string {
	if len(s.LastCalls) == 0 {
		return "-"
	}
	c := s.LastCalls[len(s.LastCalls)-1]
	verdict := command.CallVerdict(c.Verdict)
	if c.Rule != "" {
		return verdict + " " + c.Rule
	}
	return verdict + " " + c.Raw + " " + c.Summary
}

// projectSummary is one line on the project's items besides its sessions.
func projectSummary(doc *view.Status) string {
	var parts []string
	if n := len(openTodos(doc.Todos)); n > 0 {
		parts = append(parts, fmt.Sprintf("%d open todo(s)", n))
	}
	if n := len(doc.Background); n > 0 {
		parts = append(parts, fmt.Sprintf("%d background task(s)", n))
	}
	if n := len(doc.Anchors); n > 0 {
		parts = append(parts, fmt.Sprintf("%d anchor(s)", n))
	}
	if len(parts) == 0 && len(doc.Sessions) == 0 {
		return ""
	}
	return strings.Join(append(parts, "'atreides status -v' for everything"), "; ")
}

// age is a duration as a list shows it: its largest unit only.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(int(d.Seconds()), 0))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func printStatus(io *command.IO, doc *view.Status) {
	fmt.Fprintf(io.Out, "project %s\n", doc.Project)
	printStatusBackground(io, doc.Background)
	printStatusProblems(io, doc)
	if len(doc.Sessions) == 0 && len(doc.Unreadable) == 0 {
		fmt.Fprintln(io.Out, noSessions)
	}
	for i := range doc.Sessions {
		printStatusSession(io, &doc.Sessions[i])
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

// printStatusProblems says what status could not read or write: the
// trace records queued, the records that do not decode.
func printStatusProblems(io *command.IO, doc *view.Status) {
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
}

// printStatusSession prints one session in full (status -v).
func printStatusSession(io *command.IO, s *view.StatusSession) {
	st := command.StyleOf(io)
	state := "active"
	if s.Ended != "" {
		state = "ended (" + s.Ended + ")"
	}
	fmt.Fprintf(io.Out, "\n%s  %s  %s\n", st.Bold("session "+s.ID), s.Host, state)
	fmt.Fprintf(io.Out, "  started %s, last event %s\n", s.Started.Local().Format(time.DateTime), s.Updated.Local().Format(time.DateTime))
	c := s.Counters
	fmt.Fprintf(io.Out, "  %d tool calls (%d denied, %d asked, %d failed), %d prompts, %d stops, %d compactions\n",
		c.ToolCalls, c.Denied, c.Asked, c.Failed, c.Prompts, c.Stops, c.Compacts)
	printOrchestration(io, s)
	if len(s.LastCalls) == 0 {
		return
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
