package cli

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/spf13/cobra"
)

// versionOptions are the flags of 'atreides version'.
type versionOptions struct {
	asJSON bool
}

func newVersionCmd(io *command.IO) *cobra.Command {
	o := &versionOptions{}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "print the version",
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, `print {"version": ...}`)
	return cmd
}

func (o *versionOptions) run(io *command.IO) error {
	if o.asJSON {
		return command.PrintJSON(io, struct {
			Version string `json:"version"`
		}{hook.Version()})
	}
	_, err := fmt.Fprintf(io.Out, "atreides %s\n", hook.Version())
	return err
}
