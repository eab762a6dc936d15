package tasks

import (
	"context"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/actor"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// TestCaller holds who a task command claims for: a claim made from a
// terminal is the user's, even while an agent works in the project; an
// agent's command claims for its session (named by its host, else the
// project's most recent one).
func TestCaller(t *testing.T) {
	for _, c := range []struct {
		name, named string
		env         map[string]string
		terminal    bool
		recent      string
		want        string
	}{
		{name: "flag first", named: "flag", env: map[string]string{"ATREIDES_SESSION_ID": "env"}, recent: "r", want: "flag"},
		{name: "a flag at a terminal", named: "flag", terminal: true, recent: "r", want: "flag"},
		{name: "the host's variable wins", env: map[string]string{"ATREIDES_SESSION_ID": "a", "CLAUDE_CODE_SESSION_ID": "c"}, recent: "r", want: "c"},
		{name: "a host's variable of the registry", env: map[string]string{"X_SESSION": "x", "ATREIDES_SESSION_ID": "a"}, recent: "r", want: "x"},
		{name: "atreides variable", env: map[string]string{"ATREIDES_SESSION_ID": "a"}, recent: "r", want: "a"},
		{name: "claude variable", env: map[string]string{"CLAUDE_CODE_SESSION_ID": "c"}, recent: "r", want: "c"},
		{name: "a person while an agent works", terminal: true, recent: "r", want: UserSession},
		{name: "a person in a project without sessions", terminal: true, want: UserSession},
		{name: "a person who names a session in the environment", terminal: true, env: map[string]string{"ATREIDES_SESSION_ID": "a"}, recent: "r", want: "a"},
		{name: "an agent at a pseudo-terminal", terminal: true, env: map[string]string{"X_AGENT": "1"}, recent: "r", want: "r"},
		{name: "an agent its host does not name", env: map[string]string{"X_AGENT": "1"}, recent: "r", want: "r"},
		{name: "a script: most recent session", recent: "r", want: "r"},
		{name: "a script without sessions", want: UserSession},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Open(t.TempDir(), Options{})
			if c.recent != "" {
				err := r.Store.Update(context.Background(), func(tx *store.Tx) error {
					return state.UpdateProject(tx, func(p *state.Project) error {
						govstate.Key.Of(p).Touch("older", "claude", time.Now().Add(-time.Hour))
						govstate.Key.Of(p).Touch(c.recent, "claude", time.Now())
						return nil
					})
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			e := actor.Env{Getenv: func(k string) string { return c.env[k] }, Terminal: c.terminal, Marks: []string{"X_AGENT"}, Sessions: []string{"X_SESSION"}}
			got, how, err := r.Caller(context.Background(), c.named, e)
			if err != nil || got != c.want || how == "" {
				t.Fatalf("Caller = %q (%s), %v; want %q", got, how, err, c.want)
			}
		})
	}
}
