package inspect

import (
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
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	l, err := loadLedger(root)
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
