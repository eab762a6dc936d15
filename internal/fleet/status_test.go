package fleet

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/store"
)

// TestStatusOf: the embedded store is named by its file; a team's
// database by its DSN without the password, with why it cannot be
// reached.
func TestStatusOf(t *testing.T) {
	dir, _ := repo(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	none := func(string) string { return "" }
	if s := StatusOf(dir, none); s.Backend != "bbolt" || s.Where != filepath.Join(dir, ".atreides", "state.db") || s.Error != "" {
		t.Errorf("embedded store: %+v", s)
	}
	// The user's configuration: a project's needs trust to name a store.
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	if err := os.MkdirAll(filepath.Join(xdg, "atreides"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(xdg, "atreides", "config.yaml"), []byte("store:\n  backend: postgres\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == DSNEnv {
			return "postgres://u:secret@h/db"
		}
		return ""
	}
	s := StatusOf(dir, env)
	if s.Backend != "postgres" || strings.Contains(s.Where, "secret") || !strings.Contains(s.Where, "h/db") || !strings.Contains(s.Error, "atreides-team") {
		t.Errorf("team store not linked: %+v", s)
	}
	if s := StatusOf(dir, none); !strings.Contains(s.Error, DSNEnv) {
		t.Errorf("team store without a DSN: %+v", s)
	}
}

// TestMigrate: the back end migrates the database the environment names
// and Migrate says where without the password; no DSN is ErrNoDSN.
func TestMigrate(t *testing.T) {
	var gotDSN, gotVersion string
	store.Register("fleet-test", store.Kind{Migrate: func(_ context.Context, dsn, version string) (store.Migrated, error) {
		gotDSN, gotVersion = dsn, version
		return store.Migrated{From: 1, To: 3}, nil
	}})
	c := *builtin(t)
	c.Store.Backend = "fleet-test"
	env := func(k string) string {
		if k == DSNEnv {
			return "postgres://u:secret@h/db"
		}
		return ""
	}
	where, m, err := Migrate(context.Background(), &c, env, "v9")
	if err != nil || m != (store.Migrated{From: 1, To: 3}) || strings.Contains(where, "secret") || gotDSN != "postgres://u:secret@h/db" || gotVersion != "v9" {
		t.Errorf("Migrate = %q, %+v, %v (back end got %q, %q)", where, m, err, gotDSN, gotVersion)
	}
	if _, _, err := Migrate(context.Background(), &c, func(string) string { return "" }, "v9"); !errors.Is(err, ErrNoDSN) {
		t.Errorf("no DSN: %v", err)
	}
	c.Store.Backend = "postgres"
	if _, _, err := Migrate(context.Background(), &c, env, "v9"); !errors.Is(err, store.ErrNotLinked) {
		t.Errorf("back end not linked: %v", err)
	}
}
