//go:build linux

package tasks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/tmpfstest"
)

// TestFullDisk puts the specs directory on a small tmpfs and fills it: a
// change still commits, the previous files stay whole and no temporary
// file is left, the failure is recorded, and once there is space Recover
// brings the files up to date.
func TestFullDisk(t *testing.T) {
	mnt := tmpfstest.Mount(t, "256k")
	if mnt == "" {
		return // ran in a namespace
	}
	r := newRepo(t)
	r.Opts.Dir = filepath.Join(mnt, "specs")
	add(t, r, "one")
	before := map[string][]byte{}
	for _, n := range fileNames {
		before[n], _ = os.ReadFile(filepath.Join(r.SpecsDir(), n))
	}
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("x"), 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			break
		}
	}
	f.Close()

	add(t, r, "two: the change commits although its files cannot be written")
	b := storedBoard(t, r)
	if b.Gen != 2 || b.Files.Gen != 1 || !strings.Contains(b.Files.Err, "no space") {
		t.Fatalf("board gen %d, files %+v", b.Gen, b.Files)
	}
	for _, n := range fileNames {
		if got, _ := os.ReadFile(filepath.Join(r.SpecsDir(), n)); !bytes.Equal(got, before[n]) {
			t.Errorf("%s changed on a full disk", n)
		}
	}
	if got := strings.Join(specFiles(t, r), " "); got != "TODO.md errors.json state.json" {
		t.Errorf("left on a full disk: %s", got)
	}
	if !hasKind(r.Check(b), Stale) {
		t.Errorf("Check = %v", r.Check(b))
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := r.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	assertInSync(t, r)
}
