package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/trace"
)

const traceUsage = `trace <verify|show> [args]

Read the trace ledger (.atreides/trace.jsonl): one Agent Trace record per
file change an agent made, hash-chained.

  atreides trace verify                     check the chain; name the first broken record
  atreides trace show [--intent ID] [--file PATH] [--json]`

func runTrace(io *IO, args []string) error {
	if len(args) == 0 {
		return usagef("missing subcommand (verify, show)")
	}
	switch args[0] {
	case "verify":
		return traceVerify(io, args[1:])
	case "show":
		return traceShow(io, args[1:])
	case "-h", "--help", "help":
		fmt.Fprintf(io.Err, "Usage: %s\n", traceUsage)
		return nil
	}
	return usagef("unknown subcommand %q (verify, show)", args[0])
}

func traceVerify(io *IO, args []string) error {
	if len(args) != 0 {
		return usagef("trace verify takes no arguments")
	}
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	var head trace.Head
	if p, err := readProject(io); err == nil {
		head = trace.Head{Seq: p.Governance.Trace.Seq, Hash: p.Governance.Trace.Hash}
	}
	n, prob := trace.Verify(governance.TracePath(root), head)
	if prob != nil {
		fmt.Fprintf(io.Out, "ledger BROKEN after %d good record(s): %v\n", n, prob)
		return exitStatus(1)
	}
	fmt.Fprintf(io.Out, "ledger OK: %d record(s), chain intact\n", n)
	return nil
}

func traceShow(io *IO, args []string) error {
	fset := newFlags(traceUsage, io)
	intentID := fset.String("intent", "", "only changes made under this intent")
	file := fset.String("file", "", "only changes to this file (project-relative)")
	asJSON := fset.Bool("json", false, "print the records as JSON lines")
	if err := parse(fset, args); err != nil {
		return err
	}
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	entries, err := trace.Read(governance.TracePath(root))
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintln(io.Out, "no trace records")
		return nil
	}
	if err != nil {
		return err
	}
	want := strings.TrimPrefix(*file, "./")
	for _, e := range entries {
		if e.Err != nil {
			fmt.Fprintf(io.Out, "line %d: unreadable: %v\n", e.Line, e.Err)
			continue
		}
		m := e.Record.Metadata.Atreides
		if m == nil {
			continue
		}
		if *intentID != "" && m.Intent != *intentID {
			continue
		}
		if want != "" && !hasFile(e.Record, want) {
			continue
		}
		if *asJSON {
			b, _ := json.Marshal(e.Record)
			fmt.Fprintf(io.Out, "%s\n", b)
			continue
		}
		for _, f := range e.Record.Files {
			var ranges []string
			for _, c := range f.Conversations {
				for _, r := range c.Ranges {
					ranges = append(ranges, fmt.Sprintf("%d-%d", r.StartLine, r.EndLine))
				}
			}
			fmt.Fprintf(io.Out, "#%d %s %-6s %s lines=%s intent=%s session=%s tool=%s\n",
				m.Seq, e.Record.Timestamp, m.Change, f.Path, strings.Join(ranges, ","), orDash(m.Intent), orDash(m.Session), m.HostTool)
		}
	}
	return nil
}

func hasFile(r trace.Record, path string) bool {
	for _, f := range r.Files {
		if f.Path == path {
			return true
		}
	}
	return false
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
