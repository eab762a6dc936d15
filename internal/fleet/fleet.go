package fleet

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/taskgit"
)

// DSNEnv names the environment variable whose connection string wins over
// store.dsn.
const DSNEnv = "ATREIDES_STORE_DSN"

// idCache is the file, under .atreides (git-ignored), that keeps the id
// derived from git so that a hook does not run git on every event.
const idCache = "project-id"

// Open is the store of the project at root, as the project's
// configuration says (the built-in one when it cannot be read).
func Open(root string) *store.Store {
	c, _ := config.LoadOrBuiltin(config.DefaultPaths(root))
	return OpenWith(root, c, os.Getenv)
}

// OpenLogged is [Open] for a command that changes the state: a record
// it cannot decode and starts afresh is said in the project log, as a
// hook says it.
func OpenLogged(root string) *store.Store {
	st := Open(root)
	st.OnRecover = func(msg string) { project.NewLog(st.Dir()).Logf("state store: %s", msg) }
	return st
}

// OpenWith is [Open] with the configuration loaded, and getenv for
// [DSNEnv]. A nil configuration is the built-in one: the embedded store.
func OpenWith(root string, c *config.Config, getenv func(string) string) *store.Store {
	dir := project.StateDir(root)
	if remote, _ := Remote(c); !remote {
		return store.Open(dir)
	}
	t, err := Team(root, c, getenv)
	if err != nil {
		return store.Unavailable(dir, err)
	}
	k, err := Kind(c)
	if err != nil {
		return store.Unavailable(dir, err)
	}
	s := store.OpenRemote(dir, k.Open(t.DSN, t.Project))
	s.Origin = store.Here(root)
	return s
}

// Kind is the remote back end the configuration names, or why this
// program cannot use it.
func Kind(c *config.Config) (store.Kind, error) {
	k, ok := store.Lookup(string(c.Store.Backend))
	if !ok {
		return k, fmt.Errorf("store back end %s: %w; the project keeps its state there, which %s (installed next to atreides) runs", c.Store.Backend, store.ErrNotLinked, guard.TeamBinary)
	}
	return k, nil
}

// TeamStore is where a team's state is: the database and the project.
type TeamStore struct {
	DSN     string // may hold a password: print store.RedactDSN of it
	Project string
}

// Team is the team store of the project at root: its DSN and the
// project's id.
func Team(root string, c *config.Config, getenv func(string) string) (TeamStore, error) {
	dsn := DSN(c, getenv)
	if dsn == "" {
		return TeamStore{}, fmt.Errorf("store.backend is %s but no database is named: set %s or store.dsn", c.Store.Backend, DSNEnv)
	}
	id, err := ProjectID(root, c)
	if err != nil {
		return TeamStore{}, err
	}
	return TeamStore{DSN: dsn, Project: id}, nil
}

// Remote reports whether the configuration keeps the state in a remote
// back end, and whether this program links it.
func Remote(c *config.Config) (remote, linked bool) {
	if c == nil || c.Store.Backend == "" || c.Store.Backend == "bbolt" {
		return false, true
	}
	_, linked = store.Lookup(string(c.Store.Backend))
	return true, linked
}

// DSN is the connection string the configuration and the environment
// name, the environment's first.
func DSN(c *config.Config, getenv func(string) string) string {
	if v := strings.TrimSpace(getenv(DSNEnv)); v != "" {
		return v
	}
	return c.Store.DSN
}

// ProjectID is the project's id: project.id when set, else the hash of the
// repository's first commit, kept in .atreides/project-id after the
// first time it is worked out.
func ProjectID(root string, c *config.Config) (string, error) {
	if c != nil && c.Project.ID != "" {
		return string(c.Project.ID), nil
	}
	rel := filepath.Join(filepath.Base(project.StateDir(root)), idCache)
	if b, err := confined.ReadFile(root, rel, 256); err == nil {
		if id := strings.TrimSpace(string(b)); id != "" {
			return id, nil
		}
	}
	id, err := FirstCommit(root)
	if err != nil {
		return "", err
	}
	// Best effort: without the file the next event asks git again.
	if d, err := confined.MkdirAll(root, filepath.Dir(rel), 0o700); err == nil {
		_ = d.ReplaceFile(idCache, []byte(id+"\n"), false)
		_ = d.Close()
	}
	return id, nil
}

// FirstCommit is the id a project gets from git: its first commit's hash
// (the oldest of its root commits when histories were merged). A shallow
// clone does not have it, and says so.
func FirstCommit(root string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shallow, err := taskgit.Output(ctx, root, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return "", fmt.Errorf("project id: %s is not a git repository with a commit (set project.id in .atreides/config.yaml): %w", root, err)
	}
	if strings.TrimSpace(shallow) == "true" {
		return "", errors.New("project id: this clone is shallow, so its first commit is not here; set project.id in .atreides/config.yaml (or fetch with --unshallow)")
	}
	out, err := taskgit.Output(ctx, root, "rev-list", "--max-parents=0", "HEAD")
	if err != nil {
		return "", fmt.Errorf("project id: %s has no commit yet (set project.id in .atreides/config.yaml): %w", root, err)
	}
	roots := strings.Fields(out)
	if len(roots) == 0 {
		return "", errors.New("project id: git listed no first commit")
	}
	return roots[len(roots)-1], nil
}
