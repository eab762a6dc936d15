// Package installtest holds the helpers the tests of install and of the
// hosts' installers share: reading and writing settings files in a test's
// scratch directory and checking that an edit left no temporary file. It
// does not import install, so that install's own tests can use it.
package installtest

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// ReadFile is the content of path; a file that cannot be read fails the
// test.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Sample is one of the settings files in install's testdata, as written
// by users and tools: the hosts' installers are tested on the same files
// as the JSON editor.
func Sample(t testing.TB, name string) string {
	t.Helper()
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("installtest: cannot locate its own source")
	}
	return string(ReadFile(t, filepath.Join(filepath.Dir(self), "..", "testdata", name)))
}

// WriteFile writes content at path (nil: no file), creating its directory,
// with mode (applied even where the umask would narrow it).
func WriteFile(t testing.TB, path string, content *string, mode fs.FileMode) {
	t.Helper()
	if content == nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(*content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// Ptr is a pointer to s, for a file's content where nil means no file.
func Ptr(s string) *string { return &s }

// NoTempFiles fails if an edit left a temporary file in dir.
func NoTempFiles(t testing.TB, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// Golden compares got with the golden file at path, or rewrites it with
// -update.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s:\n got: %s\nwant: %s", path, got, want)
	}
}

// Bins writes empty shell scripts named names into one scratch directory
// and returns the path of the first: a fake atreides, with the programs
// that must sit beside it.
func Bins(t testing.TB, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, names[0])
}

// Bin is an absolute atreides path for tests that write it without
// running it.
const Bin = "/opt/atreides/bin/atreides"
