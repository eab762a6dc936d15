package sidecars

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/spf13/cobra"
)

type storeStatusOptions struct{ asJSON bool }

func newStoreStatusCmd(io *command.IO) *cobra.Command {
	o := &storeStatusOptions{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "where the state is kept; for a database, its schema and round trip",
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the status as JSON")
	return cmd
}

func (o *storeStatusOptions) run(io *command.IO) error {
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	doc := fleet.StatusOf(root, io.Getenv)
	if o.asJSON {
		if err := command.PrintJSON(io, doc); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(io.Out, "backend  %s\nwhere    %s\n", doc.Backend, doc.Where)
		if doc.Project != "" {
			fmt.Fprintf(io.Out, "project  %s\n", doc.Project)
		}
		if doc.Schema != nil {
			fmt.Fprintf(io.Out, "schema   %d (this atreides needs %d)\nlatency  %.2f ms (median round trip)\n", *doc.Schema, *doc.Wanted, doc.LatencyMS)
		}
		if doc.Error != "" {
			fmt.Fprintf(io.Err, "atreides store status: %s\n", doc.Error)
		}
	}
	if doc.Error != "" {
		return command.ExitStatus(1)
	}
	return nil
}
