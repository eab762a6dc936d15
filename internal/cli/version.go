package cli

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/buildinfo"
	"github.com/atreides-dev/atreides/internal/cli/command"
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
		Long: `Print atreides's version, the commit it was built from and that commit's
date. A release build has them stamped in; a 'go install' build reads them
from what the Go toolchain recorded; a build with neither says "devel".`,
		Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, `print {"version": ..., "commit": ..., "date": ...}`)
	return cmd
}

func (o *versionOptions) run(io *command.IO) error {
	if o.asJSON {
		return command.PrintJSON(io, buildinfo.Read())
	}
	_, err := fmt.Fprintln(io.Out, buildinfo.Summary())
	return err
}
