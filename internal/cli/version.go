package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

type versionOptions struct{}

func newVersionCmd(io *IO) *cobra.Command {
	o := &versionOptions{}
	return &cobra.Command{
		Use:   "version",
		Short: "print the version",
		Args:  noArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
}

func (o *versionOptions) run(io *IO) error {
	_, err := fmt.Fprintf(io.Out, "atreides %s\n", Version())
	return err
}
