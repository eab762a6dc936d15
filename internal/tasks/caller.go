package tasks

import (
	"context"

	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// UserSession is the claimer of a command run outside any session: a
// person at a terminal in a project no agent has worked in yet. Their
// claim is a claim like any other: agents' ready lists skip it and their
// claims are refused until the person releases it or one forces it.
const UserSession = "user"

// Caller is the session a task command acts for and how it was found:
// named (its --session flag), else the environment's, else the project's
// most recently active session (govstate.Governance.Caller), else
// UserSession. The project record is read only when neither flag nor
// environment names a session.
func (r *Repo) Caller(ctx context.Context, named string, getenv func(string) string) (id, how string, err error) {
	if named != "" {
		return named, "named by --session", nil
	}
	if id, how := state.EnvSession(getenv); id != "" {
		return id, how, nil
	}
	err = r.Store.View(ctx, func(tx *store.Tx) error {
		p, err := state.LoadProject(tx)
		if err != nil {
			return err
		}
		id, how = govstate.Key.Read(p).Caller(nil)
		return nil
	})
	if err != nil {
		return "", "", err
	}
	if id == "" {
		return UserSession, "no session: a person at a terminal", nil
	}
	return id, how, nil
}
