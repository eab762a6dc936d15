package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/trace"
)

const traceUsage = `trace <verify|show> [args]

Read the trace ledger (.atreides/trace.jsonl): one Agent Trace record per
file change an agent made, hash-chained, its head signed into a checkpoint
kept in your config directory (see docs/ledger.md).

  atreides trace verify [--json] [--strict]  check the chain and the heads; name the first problem
  atreides trace show [--intent ID] [--file PATH] [--json]

verify exits 0 when the ledger is intact and matches its signed
checkpoint (or the state file's head), 1 otherwise, also when no head is
known. --strict also fails on records no checkpoint of this machine
vouches for (written elsewhere, or appended behind atreides's back).`

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
	fset := newFlags(traceUsage, io)
	asJSON := fset.Bool("json", false, "print the report as JSON (docs/ledger.md)")
	strict := fset.Bool("strict", false, "fail on unanchored records too")
	if err := parse(fset, args); err != nil {
		return err
	}
	if fset.NArg() > 0 {
		return usagef("unexpected argument %q", fset.Arg(0))
	}
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	var anchor *trace.Anchor
	if dir := policy.ConfigDir(); dir != "" {
		anchor = trace.NewAnchor(dir, root)
	}
	head, stateErr := stateHead(root)
	rep := trace.Verify(governance.TracePath(root), head, anchor)
	if stateErr != nil && rep.Head.Source == trace.SourceNone && rep.Problem != nil {
		rep.Problem.Msg += " (the state file could not be read: " + stateErr.Error() + ")"
	}
	if *strict && rep.OK && len(rep.Unanchored) > 0 {
		rep.OK = false
	}
	if *asJSON {
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printVerify(io, &rep)
	}
	if !rep.OK {
		return exitStatus(1)
	}
	return nil
}

func printVerify(io *IO, rep *trace.Report) {
	switch {
	case rep.Problem != nil && rep.Problem.Line > 0:
		fmt.Fprintf(io.Out, "ledger BROKEN after %d good record(s): %v\n", rep.Records, rep.Problem)
	case rep.Problem != nil:
		fmt.Fprintf(io.Out, "ledger NOT VERIFIED (%d record(s) chain intact): %v\n", rep.Records, rep.Problem)
	default:
		src := map[string]string{trace.SourceCheckpoint: "the signed checkpoint", trace.SourceState: "the state file (no signed checkpoint)", trace.SourceNone: "nothing: the ledger is empty"}
		fmt.Fprintf(io.Out, "ledger OK: %d record(s), chain intact, head #%d matches %s\n", rep.Records, rep.Head.Seq, src[rep.Head.Source])
	}
	if c := rep.Checkpoint; c.Status != trace.CheckpointOK {
		fmt.Fprintf(io.Out, "  checkpoint: %s %s\n", c.Status, c.Path)
	}
	for _, s := range rep.Unanchored {
		fmt.Fprintf(io.Out, "  records #%d–#%d are not anchored by a checkpoint of this machine (written before it, elsewhere, or appended behind atreides's back)\n", s.From, s.To)
	}
	if rep.Missing > 0 {
		fmt.Fprintf(io.Out, "  %d record(s) missing: queued in %s, appended with the next change\n", rep.Missing, filepath.Base(trace.PendingDir(trace.FileName)))
	}
	if rep.Late > 0 {
		fmt.Fprintf(io.Out, "  %d record(s) written late, without the state before the change\n", rep.Late)
	}
	if rep.TornBytes > 0 {
		fmt.Fprintf(io.Out, "  the last line is incomplete (%d bytes, a write cut short); the next append keeps it aside\n", rep.TornBytes)
	}
}

// stateHead reads the ledger head from the project's state file, nil when
// there is none. A verifier must not change what it checks, so the file is
// read as it is: a damaged one is reported, not moved aside (View would).
func stateHead(root string) (*trace.Head, error) {
	st := store.Open(project.StateDir(root))
	st.LockTimeout = 2 * time.Second
	var p *state.Project
	err := st.ViewNoRepair(context.Background(), func(tx *store.Tx) error {
		var err error
		p, err = engine.LoadProject(tx)
		return err
	})
	if err != nil || p.Governance.Trace.Seq == 0 {
		return nil, err
	}
	return &trace.Head{Seq: p.Governance.Trace.Seq, Hash: p.Governance.Trace.Hash}, nil
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
