package fleet

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/taskgit/gittest"
)

// repo is a repository with two commits, and the hash of the first.
func repo(t *testing.T) (dir, first string) {
	t.Helper()
	dir = t.TempDir()
	gittest.Write(t, dir, "README", "a project\n")
	gittest.Init(t, dir)
	first = strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "two")
	return dir, first
}

func builtin(t *testing.T) *config.Config {
	t.Helper()
	c, err := config.Load(config.Paths{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestProjectID: every full clone gets the same id, the first commit's;
// project.id wins; a shallow clone and a directory without git are told
// to set it.
func TestProjectID(t *testing.T) {
	dir, first := repo(t)
	clone := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, dir, "clone", "-q", dir, clone)
	c := builtin(t)
	for _, d := range []string{dir, clone} {
		id, err := ProjectID(d, c)
		if err != nil || id != first {
			t.Errorf("ProjectID(%s) = %q, %v; want the first commit %s", d, id, err, first)
		}
	}
	// Worked out once, then read from .atreides/project-id.
	if b, err := os.ReadFile(filepath.Join(clone, ".atreides", "project-id")); err != nil || strings.TrimSpace(string(b)) != first {
		t.Errorf("cached id: %q, %v", b, err)
	}

	named := *c
	named.Project.ID = "team-repo"
	if id, _ := ProjectID(dir, &named); id != "team-repo" {
		t.Errorf("project.id set: got %q", id)
	}

	shallow := filepath.Join(t.TempDir(), "shallow")
	gittest.Git(t, dir, "clone", "-q", "--depth", "1", "file://"+dir, shallow)
	if _, err := ProjectID(shallow, c); err == nil || !strings.Contains(err.Error(), "shallow") || !strings.Contains(err.Error(), "project.id") {
		t.Errorf("shallow clone: %v", err)
	}
	if _, err := ProjectID(t.TempDir(), c); err == nil || !strings.Contains(err.Error(), "project.id") {
		t.Errorf("no git: %v", err)
	}
}

// TestOpenWith: the embedded store by default; a team store without a
// database, or one this program does not link, fails every call with the
// reason instead of falling back to this machine's store.
func TestOpenWith(t *testing.T) {
	dir, _ := repo(t)
	c := builtin(t)
	none := func(string) string { return "" }
	if s := OpenWith(dir, c, none); s.Remote() != nil || !strings.HasSuffix(s.Path(), "state.db") {
		t.Errorf("default store: %s", s.Path())
	}
	team := *c
	team.Store.Backend = "postgres"
	err := OpenWith(dir, &team, none).Update(context.Background(), func(*store.Tx) error { return nil })
	if err == nil || !strings.Contains(err.Error(), DSNEnv) {
		t.Errorf("no DSN: %v", err)
	}
	env := func(k string) string {
		if k == DSNEnv {
			return "postgres://u:pw@h/db"
		}
		return ""
	}
	err = OpenWith(dir, &team, env).View(context.Background(), func(*store.Tx) error { return nil })
	if !errors.Is(err, store.ErrNotLinked) || !strings.Contains(err.Error(), "atreides-team") {
		t.Errorf("back end not linked: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".atreides", "state.db")); !os.IsNotExist(err) {
		t.Errorf("a team project wrote this machine's store: %v", err)
	}
	team.Store.DSN = "postgres://from-config/db"
	if got := DSN(&team, env); got != "postgres://u:pw@h/db" {
		t.Errorf("DSN: %q, want the environment's", got)
	}
	if got := DSN(&team, none); got != "postgres://from-config/db" {
		t.Errorf("DSN: %q, want the configuration's", got)
	}
}

// TestOpenLogged: what the store recovers from is said in the project
// log.
func TestOpenLogged(t *testing.T) {
	dir, _ := repo(t)
	st := OpenLogged(dir)
	if st.OnRecover == nil {
		t.Fatal("no recovery report")
	}
	st.OnRecover("a record started afresh")
	b, err := os.ReadFile(project.NewLog(project.StateDir(dir)).Path())
	if err != nil || !strings.Contains(string(b), "state store: a record started afresh") {
		t.Errorf("project log: %v\n%s", err, b)
	}
}
