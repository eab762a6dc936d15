// Package actor tells who runs a command, a person at a terminal or an
// agent through its host, and so whether it may act for a session that is
// not its own. A session acts on its own leases, requests and tasks; one
// session acting for another (releasing its lease, selecting an intent in
// its name) is the user's.
//
// An agent's commands are recognised by what the hosts put in the
// environment of the commands they run (each host declares its variables:
// host.Host.AgentVars, all of them in all.AgentVars) and by a stdin that
// is not a terminal: a host runs its shell tool without one. A person
// is a terminal on stdin and none of the markers. The agent can unset
// variables, so the markers alone would not do; the terminal alone would
// let `script -c` through. Both together leave the agent a command that
// strips its environment and makes a pseudo-terminal, which the guard
// judges.
//
// The session an agent's command runs in is the one its host names in
// the command's environment (host.Host.SessionVar, all of them in
// all.SessionVars), when the host names one.
package actor

import (
	"fmt"
	"strings"
)

// Env is what tells who runs a command: its environment (Getenv), whether
// its stdin is a terminal, and the variables by which the hosts mark their
// agents' commands (Marks: all.AgentVars; a name ending in "*" is read
// without it, as the variable the others begin with) and name the
// session they run in (Sessions: all.SessionVars).
type Env struct {
	Getenv   func(string) string
	Terminal bool
	Marks    []string
	Sessions []string
}

// ByAgent reports whether the environment carries a host's marks.
func (e Env) ByAgent() bool {
	for _, k := range e.Marks {
		if e.Getenv(strings.TrimSuffix(k, "*")) != "" {
			return true
		}
	}
	return false
}

// Person reports whether a person runs the command: a terminal on stdin
// and no host's marks in the environment.
func Person(e Env) bool {
	return e.Terminal && !e.ByAgent()
}

// Own is the session the host says runs the command, from the first of
// the hosts' session variables that is set ("" when none is: today only
// Claude Code names it, the other hosts name none in their commands'
// environment).
func (e Env) Own() string {
	for _, k := range e.Sessions {
		if v := strings.TrimSpace(e.Getenv(k)); v != "" {
			return v
		}
	}
	return ""
}

// ActAs checks that a command that changes state may act as the named
// session: a person may act for any; a command whose host names its
// session only for that one; an agent whose host names none (Gemini CLI,
// Codex, OpenCode) for none but by the user's hand. A script or CI job,
// with no host's marks and no terminal, is left to the command's own
// rules.
func ActAs(named string, e Env) error {
	if named == "" {
		return nil
	}
	return mayActFor(named, e, !e.ByAgent(),
		"this command runs in session %[1]s and cannot act for session %[2]s: acting for another session is the user's, at a terminal",
		"this command runs in an agent's session that its host does not name, and cannot act for session %[2]s: acting for another session is the user's, at a terminal")
}

// MayRelease checks that the command may drop the named session's lease:
// as [ActAs], but a lease an agent may hold is never dropped by a command
// that is neither a person's nor its own session's, a script's included.
func MayRelease(named string, e Env) error {
	return mayActFor(named, e, false,
		"session %[1]s cannot release session %[2]s's lease: releasing another session's lease is the user's, at a terminal or in the dashboard",
		"cannot release session %[2]s's lease: this command is not run by a person at a terminal and no host names its session; run it at a terminal, or release it in the dashboard")
}

// mayActFor is what ActAs and MayRelease share: a person may, a command
// may for the session its host names, and one whose session is unknown
// may when unknown is. The messages take the own and the named session.
func mayActFor(named string, e Env, unknown bool, other, unnamed string) error {
	if Person(e) {
		return nil
	}
	switch own := e.Own(); {
	case own == named:
		return nil
	case own != "":
		return fmt.Errorf(other, own, named)
	case unknown:
		return nil
	}
	return fmt.Errorf(unnamed, "", named)
}
