package inspect

import (
	"fmt"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/trace"
	"github.com/spf13/cobra"
)

// traceVerifyOptions are the flags of 'atreides trace verify'.
type traceVerifyOptions struct {
	asJSON bool
	strict bool
}

func newTraceVerifyCmd(io *command.IO) *cobra.Command {
	o := &traceVerifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "check the chain and the heads; name the first problem",
		Long: `Check the ledger's hash chain and its head.

verify exits 0 when the ledger is intact and matches its signed
checkpoint (or the state file's head), 1 otherwise, also when no head is
known. --strict also fails on records no checkpoint of this machine
vouches for (written elsewhere, or appended behind atreides's back).`,
		Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.asJSON, "json", false, "print the report as JSON (docs/ledger.md)")
	f.BoolVar(&o.strict, "strict", false, "fail on unanchored records too")
	return cmd
}

func (o *traceVerifyOptions) run(io *command.IO) error {
	root, l, err := loadLedger(io)
	if err != nil {
		return err
	}
	var anchor *trace.Anchor
	if dir := policy.ConfigDir(); dir != "" {
		anchor = trace.NewAnchor(dir, root)
	}
	rep := l.Verify(anchor)
	if o.strict && rep.OK && len(rep.Unanchored) > 0 {
		rep.OK = false
	}
	if o.asJSON {
		if err := command.PrintJSON(io, rep); err != nil {
			return err
		}
	} else {
		printVerify(io, &rep)
	}
	if !rep.OK {
		return command.ExitStatus(1)
	}
	return nil
}

// printVerify is the report for a person.
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
