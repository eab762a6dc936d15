package inspect

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/trace"
	"github.com/spf13/cobra"
)

func NewTraceCmd(io *command.IO) *cobra.Command {
	return command.NewGroupCmd("trace <subcommand>",
		"verify or show the trace ledger of file changes",
		`Read the trace ledger (.atreides/trace.jsonl, or the team store's when the
project keeps its state in one): one Agent Trace record per file change an
agent made, hash-chained, its head signed into a checkpoint kept in your
config directory (see docs/ledger.md).`,
		newTraceVerifyCmd(io),
		newTraceShowCmd(io),
	)
}

func printVerify(io *command.IO, rep *trace.Report) {
	switch {
	case rep.Problem != nil && rep.Problem.Line > 0:
		fmt.Fprintf(io.Out, "ledger BROKEN after %d good record(s): %v\n", rep.Records, rep.Problem)
	case rep.Problem != nil:
		fmt.Fprintf(io.Out, "ledger NOT VERIFIED (%d record(s) chain intact): %v\n", rep.Records, rep.Problem)
	default:
		src := map[string]string{trace.SourceCheckpoint: "the signed checkpoint", trace.SourceState: "the state file (no signed checkpoint)",
			trace.SourceStore: "the team store's project state", trace.SourceNone: "nothing: the ledger is empty"}
		fmt.Fprintf(io.Out, "ledger OK: %d record(s), chain intact, head #%d matches %s\n", rep.Records, rep.Head.Seq, src[rep.Head.Source])
	}
	if c := rep.Checkpoint; c.Status != trace.CheckpointOK && c.Status != trace.CheckpointTeam {
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

// loadLedger reads the ledger of the project at root, the team store's
// when the project has one (trace.Load).
func loadLedger(root string) (*trace.Ledger, error) {
	st := fleet.Open(root)
	st.LockTimeout = 2 * time.Second
	return trace.Load(context.Background(), st)
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
