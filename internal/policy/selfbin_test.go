package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestSelfThroughSymlink: a binary started through a symlink knows
// itself by its real path, without resolving the symlink itself on Linux
// (the kernel has). The test binary runs itself through a link and
// prints what Self says.
func TestSelfThroughSymlink(t *testing.T) {
	if os.Getenv("POLICY_TEST_PRINT_SELF") == "1" {
		os.Stdout.WriteString(Self())
		os.Exit(0)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	want, err := filepath.EvalSymlinks(exe)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "via-link")
	if err := os.Symlink(want, link); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(link, "-test.run=^TestSelfThroughSymlink$")
	cmd.Env = append(os.Environ(), "POLICY_TEST_PRINT_SELF=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != filepath.Clean(want) {
		t.Errorf("Self through %s = %q, want %q", link, got, want)
	}
}

// TestSameBinary: a copy of the running binary under another name is an
// installed atreides program; a file of the same size with other content,
// another file and a directory are not.
func TestSameBinary(t *testing.T) {
	self := Self()
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyPath := filepath.Join(dir, "renamed")
	if err := os.WriteFile(copyPath, data, 0o755); err != nil {
		t.Fatal(err)
	}
	other := append([]byte(nil), data...)
	other[len(other)/2] ^= 0xff
	sameSize := filepath.Join(dir, "same-size")
	if err := os.WriteFile(sameSize, other, 0o755); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{copyPath: true, self: true, sameSize: false, small: false, dir: false, filepath.Join(dir, "missing"): false} {
		if got := SameBinary(p); got != want {
			t.Errorf("SameBinary(%s) = %v, want %v", p, got, want)
		}
	}
}

// TestPathDirs: PATH's absolute directories, cleaned; relative entries
// move with the working directory and are left out.
func TestPathDirs(t *testing.T) {
	sep := string(os.PathListSeparator)
	got := PathDirs("/usr/local/bin" + sep + "bin" + sep + sep + "/home/u/go/bin/" + sep + "." + sep + "/opt/x/../y")
	want := []string{"/usr/local/bin", "/home/u/go/bin", "/opt/y"}
	if !slices.Equal(got, want) {
		t.Errorf("PathDirs = %q, want %q", got, want)
	}
}

// BenchmarkSameBinary: what judging a program run by a path in the
// project costs: one stat for a file of another size, a hash of both
// files (the installed one once per process) for a copy.
func BenchmarkSameBinary(b *testing.B) {
	dir := b.TempDir()
	small := filepath.Join(dir, "app")
	if err := os.WriteFile(small, []byte("#!/bin/sh\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(Self())
	if err != nil {
		b.Fatal(err)
	}
	copyPath := filepath.Join(dir, "renamed")
	if err := os.WriteFile(copyPath, data, 0o755); err != nil {
		b.Fatal(err)
	}
	b.Run("other size", func(b *testing.B) {
		for b.Loop() {
			if SameBinary(small) {
				b.Fatal("a shell script is not atreides")
			}
		}
	})
	b.Run("copy", func(b *testing.B) {
		for b.Loop() {
			if !SameBinary(copyPath) {
				b.Fatal("a copy is atreides")
			}
		}
	})
}
