package inspect

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/trace"
	"github.com/spf13/cobra"
)

// traceShowOptions are the flags of 'atreides trace show'.
type traceShowOptions struct {
	intent  string
	session string
	file    string
	asJSON  bool
}

func newTraceShowCmd(io *command.IO) *cobra.Command {
	o := &traceShowOptions{}
	cmd := &cobra.Command{
		Use:   "show",
		Short: "list the recorded file changes",
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.StringVarP(&o.intent, "intent", "i", "", "only changes made under this intent")
	f.StringVarP(&o.session, "session", "s", "", "only changes made by this session (an id, or the start of one)")
	f.StringVarP(&o.file, "file", "f", "", "only changes to this file (project-relative)")
	f.BoolVar(&o.asJSON, "json", false, "print the records as JSON lines")
	return cmd
}

func (o *traceShowOptions) run(io *command.IO) error {
	root, l, err := loadLedger(io)
	if err != nil {
		return err
	}
	// A session whose record is gone keeps its changes.
	session, err := command.SessionOrPrefix(root, o.session)
	if err != nil {
		return err
	}
	entries, err := l.Entries()
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		if !o.asJSON { // JSON Lines: no record, no line
			fmt.Fprintln(io.Out, "no trace records")
		}
		return nil
	}
	want := strings.TrimPrefix(o.file, "./")
	idLen := command.SessionShortLen(io, root)
	st := command.StyleOf(io)
	tb := command.NewTable(io, io.Out, "seq", "time", "change", "file", "lines", "intent", "session", "tool").Flex(3)
	for _, e := range entries {
		if e.Err != nil {
			fmt.Fprintf(io.Err, "atreides trace show: line %d unreadable: %v\n", e.Line, e.Err)
			continue
		}
		m := e.Record.Metadata.Atreides
		if m == nil || (o.intent != "" && m.Intent != o.intent) || (session != "" && m.Session != session) || (want != "" && !hasFile(e.Record, want)) {
			continue
		}
		if o.asJSON {
			b, _ := json.Marshal(e.Record)
			fmt.Fprintf(io.Out, "%s\n", b)
			continue
		}
		for _, f := range e.Record.Files {
			tb.AddPainted(command.NumberCell(io, int(m.Seq)), st.Bold).AddPainted(e.Record.Timestamp, st.Dim)
			tb.AddPainted(m.Change, func(s string) string { return st.Paint(command.SGRCyan, s) }).Add(f.Path).Add(lineRanges(f))
			tb.Add(orDash(m.Intent)).Add(orDash(command.IDCell(io, m.Session, idLen))).Add(m.HostTool).EndRow()
		}
	}
	return tb.Render()
}

// lineRanges are the lines a record changed in a file: "3-5,9-9".
func lineRanges(f trace.File) string {
	var ranges []string
	for _, c := range f.Conversations {
		for _, r := range c.Ranges {
			ranges = append(ranges, fmt.Sprintf("%d-%d", r.StartLine, r.EndLine))
		}
	}
	return strings.Join(ranges, ",")
}

// hasFile reports whether the record changed the file at path.
func hasFile(r trace.Record, path string) bool {
	for _, f := range r.Files {
		if f.Path == path {
			return true
		}
	}
	return false
}
