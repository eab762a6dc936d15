package agenttools

import (
	"errors"

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
	if e.Named {
		return state.EnvSession(e.Getenv)
	}
	return govstate.Key.Read(p).Caller(e.Getenv)
}

// errNoCaller is a call no session is known to make: the host named
// none, and its hooks have not run for this server's session yet (they
// bind it on the session's start and before each atreides tool call).
var errNoCaller = errors.New("atreides cannot tell which session is calling: it has not seen this session's hooks yet (make any tool call first, then retry; or set ATREIDES_SESSION_ID)")
