package cli

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/host/all"
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

// completing reports whether a command line is a shell asking for
// completions (cobra's hidden __complete command): only then are the
// dynamic completions wired in, so no other command pays for the walk.
func completing(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// addDynamicCompletion offers, under root, what the project and the host
// registry hold: host names for --host and for install's and uninstall's
// arguments, and the sessions for --session. A completion set by the
// command itself (command.CompleteValues: log's verdicts; work's todo and
// task numbers) is left as it is.
func addDynamicCompletion(io *command.IO, root *cobra.Command) {
	hosts := cobra.FixedCompletions(hostNames(), cobra.ShellCompDirectiveNoFileComp)
	flags := []struct {
		name string
		fn   cobra.CompletionFunc
	}{
		{"host", hosts},
		{"session", command.CompleteWith(io, command.SessionCompletions)},
	}
	walkCommands(root, func(c *cobra.Command) {
		for _, f := range flags {
			if c.Flags().Lookup(f.name) != nil {
				_ = c.RegisterFlagCompletionFunc(f.name, f.fn) // taken already: kept
			}
		}
		if c.ValidArgsFunction == nil && len(c.ValidArgs) == 0 {
			c.ValidArgsFunction = argCompletion(c, hosts)
		}
	})
}

// argCompletion completes the hosts install and uninstall take; nil for
// other commands.
func argCompletion(c *cobra.Command, hosts cobra.CompletionFunc) cobra.CompletionFunc {
	if c.HasParent() && !c.Parent().HasParent() && (c.Name() == "install" || c.Name() == "uninstall") {
		return hosts
	}
	return nil
}

// hostNames are the registry's hosts, as commands take them.
func hostNames() []string {
	var names []string
	for _, h := range all.All() {
		names = append(names, h.Name)
	}
	return names
}

func walkCommands(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		walkCommands(sub, fn)
	}
}
