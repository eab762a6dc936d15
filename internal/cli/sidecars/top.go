package sidecars

import (
	"os"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/companion"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/spf13/cobra"
)

const topLong = `Show this project's live sessions in the terminal, like top: each session's
host, phase, state, last event, tool calls, denials, asks, open todos,
background tasks and task; the newest decisions of the audit trail; the
background tasks still running. It redraws within a second of a hook event.

Keys: j/k or the arrows move, enter opens a session (its open todos and
strikes, its recent calls and decisions, newest first, the selected one in
full), / filters what the screen lists, esc or q goes back (and quits from the sessions), ? shows
the keys, ctrl+c quits.

--all shows the sessions of every project atreides knows, with a project
column. It reads the same model as the dashboard (atreides ui) and changes
nothing. It needs a terminal: for a one-shot view, or from a script, run
'atreides status' (--json). Runs the atreides-ui program installed next to
atreides (a separate program, so that hooks do not pay for it).`

func NewTopCmd(io *command.IO) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "top",
		Short: "show live sessions, their phase, decisions and background tasks in the terminal",
		Long:  topLong,
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return runTop(io, all) },
	}
	cmd.Flags().BoolVar(&all, "all", false, "show every project atreides knows, not only this one")
	return cmd
}

// runTop refuses without a terminal here (exit 2), before looking for
// the companion, then runs 'atreides-ui top' on this terminal.
func runTop(io *command.IO, all bool) error {
	if !command.Interactive(io) {
		return command.Usagef("needs a terminal on stdin and stdout; for a one-shot view run 'atreides status' (--json for scripts)")
	}
	wd, err := io.Getwd()
	if err != nil {
		return err
	}
	bin, err := companion.Ensure(guard.UIBinary, "./cmd/"+guard.UIBinary, io.Err)
	if err != nil {
		return err
	}
	args := []string{"top"}
	if all {
		args = append(args, "--all")
	}
	return command.RunCompanion(io, bin, wd, args, os.Environ())
}
