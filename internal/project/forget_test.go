package project

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Forget drops one project and keeps the others; the last one takes the
// registry's files with it; an unknown project changes nothing.
func TestForget(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	a, b := t.TempDir(), t.TempDir()
	now := time.Now()
	for _, r := range []string{a, b} {
		if err := Remember(r, now); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(state, "atreides", knownName)
	if got, err := Forget(filepath.Join(t.TempDir(), "never")); err != nil || got != nil {
		t.Errorf("unknown project: %v, %v", got, err)
	}
	if got, err := Forget(a); err != nil || len(got) != 1 || got[0] != file {
		t.Errorf("first: %v, %v", got, err)
	}
	ps, err := Known()
	if err != nil || len(ps) != 1 || ps[0].Root != b {
		t.Errorf("left: %+v, %v", ps, err)
	}
	if got, err := Forget(b); err != nil || len(got) != 2 {
		t.Errorf("last: %v, %v", got, err)
	}
	for _, name := range []string{knownName, knownLock} {
		if _, err := os.Lstat(filepath.Join(state, "atreides", name)); !os.IsNotExist(err) {
			t.Errorf("%s left: %v", name, err)
		}
	}
}
