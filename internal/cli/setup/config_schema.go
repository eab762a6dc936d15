package setup

import (
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/spf13/cobra"
)

func newConfigSchemaCmd(io *command.IO) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "print the JSON Schema of config.yaml",
		Long: `Print the JSON Schema of a configuration file, the one this atreides
reads: editors with a YAML language server complete and check a file whose
first line names it (# yaml-language-server: $schema=<path>). 'atreides
init' writes it beside the project's config; for your own file:
  atreides config schema > ~/.config/atreides/config.schema.json`,
		Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			data, err := config.Schema()
			if err != nil {
				return err
			}
			_, err = io.Out.Write(data)
			return err
		},
	}
}
