package setup

import (
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

func NewConfigCmd(io *command.IO) *cobra.Command {
	return command.NewGroupCmd("config <subcommand>",
		"show or validate the merged configuration",
		`The configuration is built-in defaults, then ~/.config/atreides/config.yaml,
then .atreides/config.yaml of this project.`,
		newConfigShowCmd(io),
		newConfigValidateCmd(io),
		newConfigSchemaCmd(io),
	)
}
