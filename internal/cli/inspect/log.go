package inspect

import (
	"bufio"
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/host/all"

	stdio "io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"text/tabwriter"
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
time), --session ID, --verdict deny (allow, ask, deny, none, or block for an
event refused or kept going; repeat or comma-separate for several),
--rule git.reset-hard (a rule id; "self." or "git.*" for a group), --host
claude.

--json prints the records as JSON lines, exactly as stored (docs/audit.md
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
	f.StringVarP(&o.session, "session", "s", "", "only this session's records")
	f.StringSliceVar(&o.verdicts, "verdict", nil, "only these verdicts: allow, ask, deny, none, block")
	f.StringVarP(&o.rule, "rule", "r", "", `only this rule, or a group: "self." or "git.*"`)
	f.StringVar(&o.host, "host", "", "only this host's records ("+all.Names()+")")
	f.BoolVarP(&o.follow, "follow", "f", false, "keep printing records as they are written")
	f.BoolVar(&o.asJSON, "json", false, "print JSON lines (with --stats, one JSON object)")
	f.BoolVar(&o.stats, "stats", false, "count what was stopped, by rule and by day")
	f.BoolVar(&o.local, "local", false, "in a team's project, read this checkout's own file, not the shared trail")
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
	if !o.local {
		if sh, ok := audit.Of(fleet.Open(root)).(*audit.Shared); ok {
			t, poll = sh, time.Second // a poll is a connection and a transaction
		}
	}
	if o.stats {
		return o.printStats(io, t, f)
	}
	if o.follow {
		// Unbuffered: each record shows as soon as it is written.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return t.Follow(ctx, f, poll, nil, o.lineWriter(io, io.Out))
	}
	// Buffered: a read may print tens of thousands of records, and one
	// write each would take longer than reading them.
	out := bufio.NewWriterSize(io.Out, 64<<10)
	n := 0
	var res audit.Result
	if o.asJSON {
		res, err = t.Read(f, func(line []byte) error { n++; return writeLine(out, line) })
	} else {
		row := o.rowWriter(io, out)
		res, err = t.ReadRows(f, func(r *audit.Row) error { n++; return row(r) })
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

// lineWriter prints one stored line to w as --follow passes them: as
// stored for --json, else as a row.
func (o *logOptions) lineWriter(io *command.IO, w stdio.Writer) func([]byte) error {
	if o.asJSON {
		return func(line []byte) error { return writeLine(w, line) }
	}
	row := o.rowWriter(io, w)
	return func(line []byte) error {
		if r, ok := audit.RowOf(line); ok {
			return row(&r)
		}
		return nil
	}
}

func writeLine(w stdio.Writer, line []byte) error {
	_, err := fmt.Fprintf(w, "%s\n", line)
	return err
}

// rowWriter prints one record as a line of fixed-width columns, so
// --follow lines up without buffering. Colour follows io's terminal.
func (o *logOptions) rowWriter(io *command.IO, w stdio.Writer) func(*audit.Row) error {
	st := command.StyleOf(io)
	return func(r *audit.Row) error {
		verdict := r.Verdict
		if r.Block && verdict == "none" {
			verdict = "block"
		}
		marks := ""
		if r.Marks != "" {
			// What the event changed (a phase, a strike), after the call.
			marks = "  " + st.Dim("["+command.OneLine(r.Marks, 160)+"]")
		}
		machine := ""
		if r.Machine != "" {
			// A shared trail's: which of the team's machines.
			machine = fmt.Sprintf("%-12s ", command.OneLine(r.Machine, 24))
		}
		_, err := fmt.Fprintf(w, "%s  %-8s %-8s %s%-18s %s %-24s %-10s %s%s\n",
			st.Dim(r.Time.In(o.loc).Format(time.DateTime)), r.Host, shortID(r.Session), machine, r.HostEvent,
			st.Verdict(fmt.Sprintf("%-5s", verdict)), orDash(r.Rule), orDash(r.Tool), command.OneLine(r.Target, 120), marks)
		return err
	}
}

// shortID is the start of a session id, enough to tell sessions apart
// (--session takes the whole id, which --json shows).
func shortID(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return orDash(s)
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
	tw := tabwriter.NewWriter(io.Out, 0, 2, 2, ' ', 0)
	if len(st.Rules) == 0 {
		fmt.Fprintln(tw, "nothing stopped or asked")
	} else {
		fmt.Fprintln(tw, "RULE\tSTOPPED\tDENY\tASK\tBLOCK")
		for _, r := range st.Rules {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", orDash(r.Rule), r.Stopped, r.Deny, r.Ask, r.Block)
		}
	}
	fmt.Fprintln(tw, "\nDAY\tRECORDS\tSTOPPED\tDENY\tASK\tBLOCK")
	for _, d := range st.Days {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\n", d.Day, d.Records, d.Stopped, d.Deny, d.Ask, d.Block)
	}
	return tw.Flush()
}
