package agenttools

import (
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
)

// session returns the session a call acts for and how it was found: the
// one the caller named (Env.Session), else the one the environment or the
// project's recent sessions give (state's one binding rule, shared with
// the task commands).
func (e *Env) session(p *state.Project) (id, how string) {
	if e.Session != "" {
		return e.Session, "named by the host"
	}
	return govstate.Key.Read(p).Caller(e.Getenv)
}
