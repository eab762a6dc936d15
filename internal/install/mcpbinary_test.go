//go:build unix

package install

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMCPBinaryThroughSymlink: atreides reached through a symlink (npm's
// node_modules/.bin/atreides) finds atreides-mcp next to the file the
// link names, as 'atreides mcp' itself does, whether named by path or
// found on PATH.
func TestMCPBinaryThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	pkg, dotBin := filepath.Join(dir, "pkg", "bin"), filepath.Join(dir, ".bin")
	for _, d := range []string{pkg, dotBin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"atreides", "atreides-mcp"} {
		if err := os.WriteFile(filepath.Join(pkg, p), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dotBin, "atreides")
	if err := os.Symlink("../pkg/bin/atreides", link); err != nil {
		t.Fatal(err)
	}
	if p := MCPBinaryProblem(link); p != "" {
		t.Errorf("by path: %s", p)
	}
	t.Setenv("PATH", dotBin)
	if p := MCPBinaryProblem(PortableBinary); p != "" {
		t.Errorf("on PATH: %s", p)
	}
	// and without the companion it is still reported
	if err := os.Remove(filepath.Join(pkg, "atreides-mcp")); err != nil {
		t.Fatal(err)
	}
	if p := MCPBinaryProblem(link); p == "" {
		t.Error("a missing atreides-mcp is not reported")
	}
}
