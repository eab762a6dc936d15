package inspect

import (
	"bufio"
	"context"
	"errors"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/host/all"

	stdio "io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/spf13/cobra"
)

const logLong = `Show the audit trail: every tool call a host asked about, and every other
event on which atreides decided something (a block, a kept-going Stop),
oldest first, from .atreides/audit.jsonl and its rotated segments; in a
team's project (store.backend postgres), from the trail every checkout
shares in the team store, each record naming the machine and checkout it
came from (--local reads this checkout's own file instead).

Filters combine: --since 2h (or 30m, 7d, 2w, a day 2026-11-23, an RFC 3339
time), --session ID (or the start of one, as the table shows it),
--verdict deny (allow for a call let through, ask, deny, none for an event
on which nothing was decided, or block for an event refused or kept going;
repeat or comma-separate for several),
--rule git.reset-hard (a rule id; "self." or "git.*" for a group), --host
claude.

On a terminal the records are a table with a header row, cut to its
width; piped, they are one line each, tab-separated, nothing cut, for cut
and awk. --json prints the records as JSON lines, exactly as stored (docs/audit.md
lists the keys); --stats counts what was stopped, by rule and by day (with
--json, one object). --follow keeps printing records as they are written.`

// logOptions are the flags of 'atreides log'.
type logOptions struct {
	since    string
	session  string
	verdicts []string
	rule     string
	host     string
	follow   bool
	asJSON   bool
	stats    bool
	local    bool
	// machine is set when the trail is a team's: rows name the machine.
	machine bool
	// tty is set when the output is a terminal; idLen is then how much of
	// a session id its rows show (command.SessionShortLen).
	tty   bool
	idLen int
	// now and loc are the clock and time zone --since and the text view
	// use (tests fix them).
	now func() time.Time
	loc *time.Location
}

func NewLogCmd(io *command.IO) *cobra.Command {
	o := &logOptions{now: time.Now, loc: time.Local}
	cmd := &cobra.Command{
		Use:   "log",
		Short: "show the audit trail of decisions (filters, --follow, --stats)",
		Long:  logLong,
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.StringVar(&o.since, "since", "", "only records from this time on: 2h, 7d, 2026-11-23, or RFC 3339")
	f.StringVarP(&o.session, "session", "s", "", "only this session's records (an id, or the start of one)")
	f.StringSliceVar(&o.verdicts, "verdict", nil, "only these verdicts: allow, ask, deny, none, block")
	f.StringVarP(&o.rule, "rule", "r", "", `only this rule, or a group: "self." or "git.*"`)
	f.StringVar(&o.host, "host", "", "only this host's records ("+all.Names()+")")
	f.BoolVarP(&o.follow, "follow", "f", false, "keep printing records as they are written")
	f.BoolVar(&o.asJSON, "json", false, "print JSON lines (with --stats, one JSON object)")
	f.BoolVar(&o.stats, "stats", false, "count what was stopped, by rule and by day")
	f.BoolVar(&o.local, "local", false, "in a team's project, read this checkout's own file, not the shared trail")
	command.CompleteValues(cmd, "verdict", audit.FilterVerdicts...)
	return cmd
}

func (o *logOptions) filter() (audit.Filter, error) {
	f := audit.Filter{Session: o.session, Rule: o.rule, Host: o.host}
	for _, v := range o.verdicts {
		if !slices.Contains(audit.FilterVerdicts, v) {
			return f, command.Usagef("--verdict %q: want one of %s", v, strings.Join(audit.FilterVerdicts, ", "))
		}
		f.Verdicts = append(f.Verdicts, v)
	}
	if o.since != "" {
		t, err := audit.ParseSince(o.since, o.now(), o.loc)
		if err != nil {
			return f, command.Usagef("%v", err)
		}
		f.Since = t
	}
	return f, nil
}

func (o *logOptions) run(io *command.IO) error {
	if o.follow && o.stats {
		return command.Usagef("--follow and --stats do not go together")
	}
	f, err := o.filter()
	if err != nil {
		return err
	}
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	var t audit.Reader = audit.New(project.StateDir(root), nil)
	poll := 250 * time.Millisecond
	if !o.local && command.HasState(root) {
		if sh, ok := audit.Of(fleet.Open(root)).(*audit.Shared); ok {
			t, poll = sh, time.Second // a poll is a connection and a transaction
		}
	}
	if err := o.resolveSession(root, t, &f); err != nil {
		return err
	}
	if o.stats {
		return o.printStats(io, t, f)
	}
	o.tty, o.idLen = command.IsTTY(io), command.SessionShortLen(io, root)
	if o.follow {
		return o.runFollow(io, t, f, poll)
	}
	return o.printRecords(io, t, f)
}

// resolveSession turns --session into the id of the one recorded session
// it starts (command.ResolveID). A prefix no recorded session has may
// still name one whose record was pruned while its trail is kept: the
// trail is then filtered by the prefix itself. And a whole id the trail
// holds is that session, though a recorded one's id starts with it (s1,
// pruned, beside s10).
func (o *logOptions) resolveSession(root string, t audit.Reader, f *audit.Filter) error {
	if o.session == "" {
		return nil
	}
	id, err := command.ResolveSession(root, o.session)
	switch {
	case errors.Is(err, command.ErrNoMatch):
		f.SessionPrefix = true
		return nil
	case err != nil:
		return err
	case id != o.session && inTrail(t, o.session):
		return nil
	}
	f.Session = id
	return nil
}

// inTrail reports whether the trail holds a record of the session id.
func inTrail(t audit.Reader, id string) bool {
	found := errors.New("found")
	_, err := t.Read(audit.Filter{Session: id}, func([]byte) error { return found })
	return errors.Is(err, found)
}

// runFollow prints records as they are written, until interrupted.
func (o *logOptions) runFollow(io *command.IO, t audit.Reader, f audit.Filter, poll time.Duration) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// Unbuffered: each record shows as soon as it is written.
	if o.asJSON {
		return t.Follow(ctx, f, poll, nil, func(line []byte) error { return writeLine(io.Out, line) })
	}
	// The target, the open column, takes the rest of the line; on a
	// narrow terminal it and the marks give way first.
	cols := o.columns(t)
	tb, err := command.NewStream(io, io.Out, cols...)
	if err != nil {
		return err
	}
	return t.Follow(ctx, f, poll, nil, func(line []byte) error {
		if r, ok := audit.RowOf(line); ok {
			return o.addRow(io, tb, &r)
		}
		return nil
	})
}

// printRecords prints the matching records: as stored for --json, else
// as a table.
func (o *logOptions) printRecords(io *command.IO, t audit.Reader, f audit.Filter) error {
	// Buffered: a read may print tens of thousands of records, and one
	// write each would take longer than reading them.
	out := bufio.NewWriterSize(io.Out, 64<<10)
	var res audit.Result
	var err error
	n := 0
	if o.asJSON {
		res, err = t.Read(f, func(line []byte) error { n++; return writeLine(out, line) })
	} else {
		tb := command.NewTable(io, out).Columns(o.columns(t)...)
		res, err = t.ReadRows(f, func(r *audit.Row) error { n++; return o.addRow(io, tb, r) })
		if err == nil {
			err = tb.Render()
		}
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	if res.Damaged > 0 {
		fmt.Fprintf(io.Err, "atreides log: %d damaged line(s) in %s skipped\n", res.Damaged, t.Where())
	}
	if n == 0 && !o.asJSON {
		fmt.Fprintln(io.Out, "no matching records")
	}
	return nil
}

func writeLine(w stdio.Writer, line []byte) error {
	_, err := fmt.Fprintf(w, "%s\n", line)
	return err
}

// columns are the log's columns, with the width each has while
// following (the rows to come cannot be measured): a shared trail's
// rows say which of the team's machines wrote them.
func (o *logOptions) columns(t audit.Reader) []command.Column {
	cols := []command.Column{{Title: "time", Width: len(o.timeLayout())}, {Title: "host", Width: 8}, {Title: "session", Width: 8}}
	if _, shared := t.(*audit.Shared); shared {
		o.machine = true
		cols = append(cols, command.Column{Title: "machine", Width: 12})
	}
	// Widths that hold the usual values: the host events (PreToolUse,
	// BeforeTool, SessionStart), rule ids, tool names; longer ones are cut.
	return append(cols, command.Column{Title: "event", Width: 12}, command.Column{Title: "verdict", Width: 7},
		command.Column{Title: "rule", Width: 18}, command.Column{Title: "tool", Width: 8},
		command.Column{Title: "target", Width: 0, Flex: true}, command.Column{Title: "changed", Width: 16, Flex: true})
}

// timeLayout is how a record's time is shown: with its date, except on a
// terminal following the trail, where every record is of the moment and
// the target needs the room.
func (o *logOptions) timeLayout() string {
	if o.follow && o.tty {
		return time.TimeOnly
	}
	return time.DateTime
}

// addRow adds one record to the table; its marks (what the event changed:
// a phase, a strike) are the last column.
func (o *logOptions) addRow(io *command.IO, tb *command.Table, r *audit.Row) error {
	st := command.StyleOf(io)
	verdict := r.Verdict
	if r.Block && verdict == "none" {
		verdict = "block"
	}
	tb.AddPainted(r.Time.In(o.loc).Format(o.timeLayout()), st.Dim).Add(r.Host).Add(orDash(command.IDCell(io, r.Session, o.idLen)))
	if o.machine {
		tb.Add(orDash(r.Machine))
	}
	tb.Add(r.HostEvent).AddPainted(verdict, st.Verdict).Add(orDash(r.Rule)).Add(orDash(r.Tool)).Add(r.Target)
	tb.AddPainted(r.Marks, st.Dim)
	return tb.EndRow()
}

func (o *logOptions) printStats(io *command.IO, t audit.Reader, f audit.Filter) error {
	st, err := t.Stats(f, o.loc)
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, st)
	}
	if st.Damaged > 0 {
		fmt.Fprintf(io.Err, "atreides log: %d damaged line(s) in %s skipped\n", st.Damaged, t.Where())
	}
	if st.Records == 0 {
		fmt.Fprintln(io.Out, "no matching records")
		return nil
	}
	first, _ := time.Parse(time.RFC3339Nano, st.First)
	last, _ := time.Parse(time.RFC3339Nano, st.Last)
	fmt.Fprintf(io.Out, "%d records, %s to %s\n\n", st.Records, first.In(o.loc).Format(time.DateTime), last.In(o.loc).Format(time.DateTime))
	if len(st.Rules) == 0 {
		fmt.Fprintln(io.Out, "nothing stopped or asked")
	} else {
		rules := command.NewTable(io, io.Out, "rule", "stopped", "deny", "ask", "block")
		for _, r := range st.Rules {
			rules.Row(orDash(r.Rule), strconv.Itoa(r.Stopped), strconv.Itoa(r.Deny), strconv.Itoa(r.Ask), strconv.Itoa(r.Block))
		}
		if err := rules.Render(); err != nil {
			return err
		}
	}
	fmt.Fprintln(io.Out)
	days := command.NewTable(io, io.Out, "day", "records", "stopped", "deny", "ask", "block")
	for _, d := range st.Days {
		days.Row(d.Day, strconv.Itoa(d.Records), strconv.Itoa(d.Stopped), strconv.Itoa(d.Deny), strconv.Itoa(d.Ask), strconv.Itoa(d.Block))
	}
	return days.Render()
}
