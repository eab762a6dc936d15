package cli

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// governanceHandler is the governance handler with its options read from
// the configuration on first use.
func governanceHandler(s *settings) engine.Handler {
	opts := sync.OnceValue(func() governance.Options {
		if s.builtin() {
			return governance.Options{} // governance is off by default
		}
		c, err := s.cfg.Get()
		if err != nil {
			o := governance.DefaultOptions()
			o.ConfigErr = err
			return o
		}
		o := governanceOptions(&c.Governance)
		o.Team, _ = fleet.Remote(c)
		// The scoped commits find a task's files in the ledger: keep it,
		// without the gate when governance is off.
		if c.Tasks.Commits.Enabled {
			o.Trace, o.TraceOnly = true, !o.Enabled
		}
		return o
	})
	return governance.Handler(opts, governance.LoadIntents())
}

func governanceOptions(c *config.Governance) governance.Options {
	o := governance.Options{
		Enabled: c.Enabled, Lease: time.Duration(c.LeaseMinutes) * time.Minute,
		Trace: c.Trace, Version: Version(), KeyDir: policy.ConfigDir(),
	}
	switch c.UnknownWrites {
	case config.Allow:
		o.UnknownWrites = event.Allow
	case config.Deny:
		o.UnknownWrites = event.Deny
	default:
		o.UnknownWrites = event.Ask
	}
	for _, g := range c.Exempt {
		o.Exempt = append(o.Exempt, string(g))
	}
	return o
}

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
	f, err := loadIntentsAt(root)
	return root, f, err
}

// loadIntentsAt reads the intents of the project at root: none when it
// has no intents file.
func loadIntentsAt(root string) (*intent.File, error) {
	f, err := intent.Load(governance.IntentsPath(root))
	if err != nil && !intent.NotExist(err) {
		return f, err
	}
	return f, nil
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
	return loadProject(fleet.Open(root))
}

// stdinTerminal reports whether the command's stdin is a terminal: a
// person's (package actor); an agent's shell tool gives none.
func stdinTerminal(io *IO) bool {
	f, ok := io.In.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
