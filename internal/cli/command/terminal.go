package command

import (
	"os"

	"github.com/atreides-dev/atreides/internal/actor"
	"github.com/atreides-dev/atreides/internal/host/all"
	"golang.org/x/term"
)

// Actor is who runs the command as package actor tells it: the command's
// environment and stdin, the hosts' marks (all.AgentVars) and the
// variables that name a command's session (all.SessionVars).
func Actor(io *IO) actor.Env {
	return actor.Env{Getenv: io.Getenv, Terminal: StdinTerminal(io), Marks: all.AgentVars(), Sessions: all.SessionVars()}
}

// StdinTerminal reports whether the command's stdin is a terminal: a
// person's (package actor); an agent's shell tool gives none.
func StdinTerminal(io *IO) bool {
	f, ok := io.In.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
