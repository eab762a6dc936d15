package tasks

import (
	"context"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

func TestCaller(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		name, named string
		env         map[string]string
		recent      string
		want        string
	}{
		{name: "flag first", named: "flag", env: map[string]string{"ATREIDES_SESSION_ID": "env"}, recent: "r", want: "flag"},
		{name: "the host's variable wins", env: map[string]string{"ATREIDES_SESSION_ID": "a", "CLAUDE_CODE_SESSION_ID": "c"}, recent: "r", want: "c"},
		{name: "atreides variable", env: map[string]string{"ATREIDES_SESSION_ID": "a"}, recent: "r", want: "a"},
		{name: "claude variable", env: map[string]string{"CLAUDE_CODE_SESSION_ID": "c"}, recent: "r", want: "c"},
		{name: "most recent session", recent: "r", want: "r"},
		{name: "a person", want: UserSession},
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
			got, how, err := r.Caller(context.Background(), c.named, env(c.env))
			if err != nil || got != c.want || how == "" {
				t.Fatalf("Caller = %q (%s), %v; want %q", got, how, err, c.want)
			}
		})
	}
}
