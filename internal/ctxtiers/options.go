package ctxtiers

import (
	"os"
	"strings"

	"github.com/atreides-dev/atreides/internal/config"
)

// Options are the tiers' budgets in bytes (context.tiers); 0 loads none
// of a tier.
type Options struct {
	Enabled                 bool
	Session, Command, Agent int
	// BackgroundAgent is the roster agent this process's session runs as
	// when it is a background task's (background.PathEnv, its own agent
	// last): its session start loads the agent's set, not the lead's.
	BackgroundAgent string
}

// FromConfig maps context.tiers.
func FromConfig(c *config.Config) Options {
	t := c.Context.Tiers
	return Options{Enabled: t.Enabled, Session: t.Session, Command: t.Command, Agent: t.Agent}
}

// BackgroundAgent is the last agent of a background task's chain as its
// supervisor names it in the environment (a comma-separated list, its own
// last); "" outside a background task. pathEnv is the variable's name
// (background.PathEnv), passed by the wiring so that this package does
// not depend on the background runner.
func BackgroundAgent(pathEnv string) string {
	p := os.Getenv(pathEnv)
	if p == "" {
		return ""
	}
	return p[strings.LastIndexByte(p, ',')+1:]
}
