// Package confinedtest holds what the tests of atreides's file handling
// share: a file of the user's, outside any project, that a hostile
// repository aims its links at, and a bound on calls that a FIFO would
// block for ever.
package confinedtest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// UserText is the content of the file Outside makes.
const UserText = "# the user's shell start-up file\n"

// Outside makes a file of the user's outside any project and returns its
// path.
func Outside(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), ".bashrc")
	if err := os.WriteFile(p, []byte(UserText), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Untouched fails the test if a file Outside made was changed.
func Untouched(t testing.TB, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if b, err := os.ReadFile(p); err != nil || string(b) != UserText {
			t.Errorf("%s was changed: %q, %v", p, b, err)
		}
	}
}

// Within fails the test if f has not returned after 10 s: opening a FIFO
// for reading waits for a writer that never comes, and must fail the
// test rather than hang it.
func Within(t testing.TB, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}
