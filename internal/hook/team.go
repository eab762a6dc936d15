package hook

import (
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/companion"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/project"
)

// A project whose state is in a team's database (store.backend: postgres)
// is served by atreides-team, the companion built with the database
// driver: the hook binary of everyone else does not link it, since every
// package linked runs its init on every hook (crypto/tls and the driver's
// tables, ~0.3 ms). atreides runs the companion in its own place, with the
// same command line and environment, for the commands that use the store
// (teamCommands) and for hooks, once the payload has named the project.
// The companion links the driver, so it never does this again.

// teamExecEnv is set in the companion's environment when atreides
// started it, so that a companion built without the driver fails instead
// of starting itself again.
const teamExecEnv = "ATREIDES_TEAM_EXEC"

// teamCommands are the commands that use the project's store; the others
// run here whatever the store is. ui and mcp start companions of their
// own, which link the driver too.
var teamCommands = []string{"serve", "doctor", "status", "export", "todo", "task", "plan", "errors", "bg", "anchor", "intent", "trace", "store", "log"}

// TeamExecFor runs the companion in place of this process for a command
// line of a project whose store needs it, and returns only when it does
// not need it or cannot start it (then the command goes on here, and its
// store says why it cannot be used).
func TeamExecFor(p *Process, args []string) {
	if len(args) == 0 || !slices.Contains(teamCommands, args[0]) {
		return
	}
	wd, err := p.Getwd()
	if err != nil {
		return
	}
	// The hook's cached configuration: read, not parsed, most times.
	s := NewSettings(project.Root("", wd))
	if s.builtin() {
		return
	}
	if c, err := s.cfg.Get(); err == nil && needsTeam(c, p.Getenv) {
		if err := teamExec(args, nil, 0); err != nil {
			fmt.Fprintf(p.Err, "atreides: %v\n", err)
		}
	}
}

// needsTeam reports whether the configuration keeps the state in a back
// end this program does not link, and the companion may be tried.
func needsTeam(c *config.Config, getenv func(string) string) bool {
	remote, linked := fleet.Remote(c)
	return remote && !linked && getenv(teamExecEnv) == ""
}

// teamExec replaces this process with the companion, running args. A
// hook's payload, read from stdin already, becomes the companion's stdin;
// budget, when set, is what is left of the hook's time.
func teamExec(args []string, payload []byte, budget time.Duration) error {
	bin, err := companion.Path(guard.TeamBinary, "./cmd/"+guard.TeamBinary)
	if err != nil {
		return err
	}
	env := append(os.Environ(), teamExecEnv+"=1")
	if budget > 0 {
		env = append(env, "ATREIDES_HOOK_BUDGET="+budget.String())
	}
	return execWith(bin, append([]string{bin}, args...), env, payload)
}
