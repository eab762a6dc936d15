package cli

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

// completionOptions are the arguments of 'atreides completion'.
type completionOptions struct {
	shell string
}

func newCompletionCmd(io *command.IO) *cobra.Command {
	o := &completionOptions{}
	return &cobra.Command{
		Use:   "completion bash|zsh|fish",
		Short: "print the shell completion script for bash, zsh or fish",
		Long: `Print a script that completes atreides's commands, flags and flag
values in your shell. Load it once per session, or install it:

  bash  source <(atreides completion bash)
        atreides completion bash > ~/.local/share/bash-completion/completions/atreides
  zsh   atreides completion zsh > "${fpath[1]}/_atreides"   (compinit must be on)
  fish  atreides completion fish > ~/.config/fish/completions/atreides.fish`,
		ValidArgs: []string{"bash", "zsh", "fish"},
		Args:      command.ExactlyOne("want one shell: bash, zsh or fish"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.shell = args[0]
			return o.run(io, cmd.Root())
		},
	}
}

// run writes the script for the tree under root; the scripts call back
// 'atreides __complete', which cobra answers from the same tree.
func (o *completionOptions) run(io *command.IO, root *cobra.Command) error {
	var err error
	switch o.shell {
	case "bash":
		err = root.GenBashCompletionV2(io.Out, true)
	case "zsh":
		err = root.GenZshCompletion(io.Out)
	case "fish":
		err = root.GenFishCompletion(io.Out, true)
	default:
		return command.Usagef("unknown shell %q (bash, zsh or fish)", o.shell)
	}
	if err != nil {
		return fmt.Errorf("write the %s completion: %w", o.shell, err)
	}
	return nil
}
