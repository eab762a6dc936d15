package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newIntentCmd(io *IO) *cobra.Command {
	return newGroupCmd("intent <subcommand>",
		"manage governed intents: list, show, add, close, select",
		`Manage the project's intents (.atreides/intents.yaml): units of work an
agent must select before it writes, each owning a set of path globs.`,
		newIntentListCmd(io),
		newIntentShowCmd(io),
		newIntentAddCmd(io),
		newIntentCloseCmd(io),
		newIntentSelectCmd(io),
		newIntentReleaseCmd(io),
		newIntentRequestsCmd(io),
	)
}

func loadIntents(io *IO) (string, *intent.File, error) {
	root, err := cwdRoot(io)
	if err != nil {
		return "", nil, err
	}
	f, err := governance.ReadIntents(root)
	return root, f, err
}

// findIntent is the intent id in f, or an error naming the id.
func findIntent(f *intent.File, id string) (*intent.Intent, error) {
	in := f.Find(id)
	if in == nil {
		return nil, fmt.Errorf("no intent %q", id)
	}
	return in, nil
}

func readProject(io *IO) (*state.Project, error) {
	root, err := cwdRoot(io)
	if err != nil {
		return nil, err
	}
	return readProjectAt(root)
}

// readProjectAt reads the record of the project at root, for a command
// that has found the root already.
func readProjectAt(root string) (*state.Project, error) {
	p, err := state.ReadProject(context.Background(), fleet.Open(root))
	if err != nil {
		return nil, fmt.Errorf("read project state: %w", err)
	}
	return p, nil
}

// stdinTerminal reports whether the command's stdin is a terminal: a
// person's (package actor); an agent's shell tool gives none.
func stdinTerminal(io *IO) bool {
	f, ok := io.In.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
