package tasks

import (
	"context"

	"github.com/atreides-dev/atreides/internal/actor"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// UserSession is the claimer of a command a person runs at a terminal,
// and of one run outside any session in a project no agent has worked in
// yet. Their claim is a claim like any other: agents' ready lists skip it
// and their claims are refused until the person releases it or one
// forces it. It is no session's: no session's record holds the task, so
// it keeps no agent from stopping.
const UserSession = "user"

// CallerOf is the session a command acts for and how it was found
// (docs/work-items.md): named (its --session flag), else the one the
// environment names (a host's session variable, actor.Env.Own, then
// state.EnvSession's), else, for a person at a terminal (actor.Person),
// the user: a claim made from a terminal is the user's, even while an
// agent works in the project. Else (an agent whose host names no session
// in its commands' environment, or a script) the project's most recently
// active session (govstate.Governance.Caller), else UserSession. p is
// read only in that last case; nil reads as a project no session has
// worked in.
func CallerOf(p *state.Project, named string, e actor.Env) (id, how string) {
	if id, how := fromEnv(named, e); id != "" {
		return id, how
	}
	return fromProject(p)
}

// fromEnv is what the flag and the environment tell of the caller; ""
// when they tell nothing and the project's recent sessions decide.
func fromEnv(named string, e actor.Env) (id, how string) {
	switch {
	case named != "":
		return named, "named by --session"
	case e.Getenv == nil:
		return "", ""
	}
	if id := e.Own(); id != "" {
		return id, "named by the host's session variable"
	}
	if id, how := state.EnvSession(e.Getenv); id != "" {
		return id, how
	}
	if actor.Person(e) {
		return UserSession, "a person at a terminal"
	}
	return "", ""
}

// fromProject is the project's most recently active session, else
// UserSession; p may be nil.
func fromProject(p *state.Project) (id, how string) {
	if p != nil {
		if id, how := govstate.Key.Read(p).Caller(nil); id != "" {
			return id, how
		}
	}
	return UserSession, "no session has worked in the project"
}

// Caller is CallerOf with the project read from r's store, only when
// the flag and the environment do not decide.
func (r *Repo) Caller(ctx context.Context, named string, e actor.Env) (id, how string, err error) {
	if id, how := fromEnv(named, e); id != "" {
		return id, how, nil
	}
	err = r.Store.View(ctx, func(tx *store.Tx) error {
		p, err := state.LoadProject(tx)
		if err != nil {
			return err
		}
		id, how = fromProject(p)
		return nil
	})
	if err != nil {
		return "", "", err
	}
	return id, how, nil
}
