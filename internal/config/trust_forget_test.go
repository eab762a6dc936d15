package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// ForgetTrust takes one project out of the record and keeps the others;
// the last one takes the record and its lock with it; a project never
// trusted creates nothing.
func TestForgetTrust(t *testing.T) {
	user := filepath.Join(t.TempDir(), "atreides")
	paths := func(root string) Paths {
		return Paths{User: filepath.Join(user, "config.yaml"), Project: filepath.Join(root, ".atreides", "config.yaml"), Trust: filepath.Join(user, TrustFileName)}
	}
	a, b := paths(t.TempDir()), paths(t.TempDir())
	if got, err := ForgetTrust(a); err != nil || got != nil {
		t.Errorf("never trusted: %v, %v", got, err)
	}
	if _, err := os.Lstat(user); !os.IsNotExist(err) {
		t.Errorf("a forget with no record made %s: %v", user, err)
	}
	for _, p := range []Paths{a, b} {
		if err := TrustProject(p, Trust{Digest: "d"}, false, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := ForgetTrust(a); err != nil || len(got) != 1 || got[0] != a.Trust {
		t.Errorf("first: %v, %v", got, err)
	}
	rec, err := readTrust(a.Trust)
	if err != nil || len(rec.Projects) != 1 {
		t.Errorf("left: %+v, %v", rec, err)
	}
	if _, ok := rec.Projects[trustKey(b.projectRoot())]; !ok {
		t.Errorf("the other project's trust went: %+v", rec)
	}
	if got, err := ForgetTrust(b); err != nil || len(got) != 2 {
		t.Errorf("last: %v, %v", got, err)
	}
	if ents, _ := os.ReadDir(user); len(ents) != 0 {
		t.Errorf("left in %s: %v", user, ents)
	}
}
