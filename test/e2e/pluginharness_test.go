package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/hostpack"
)

// buildPackages lays out the Claude Code marketplace and the Gemini CLI
// extension with hostpack.Write, the way the release build does, from a
// dist/bin/<os>-<arch>/ holding the harness-built atreides and
// atreides-mcp, and returns dist. The LICENSE is the repository's, or a
// stand-in when the checkout has none yet.
func buildPackages(t *testing.T, atreides string) string {
	t.Helper()
	root := t.TempDir()
	license, err := os.ReadFile(filepath.Join(repoRoot, "LICENSE"))
	if err != nil {
		license = []byte("Apache License\nVersion 2.0, January 2004\n(stand-in: the checkout has no LICENSE)\n")
	}
	if err := os.WriteFile(filepath.Join(root, "LICENSE"), license, 0o644); err != nil {
		t.Fatal(err)
	}
	dist := filepath.Join(root, "dist")
	bin := filepath.Join(dist, "bin", runtime.GOOS+"-"+runtime.GOARCH)
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"atreides", "atreides-mcp"} {
		data, err := os.ReadFile(filepath.Join(filepath.Dir(atreides), name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := hostpack.Write(dist, "v0.0.0-e2e"); err != nil {
		t.Fatal(err)
	}
	return dist
}

// withoutAtreidesOnPath is env with PATH the test process's own: the
// harness puts the built atreides first on PATH, and a package must run
// its own copy.
func withoutAtreidesOnPath(t *testing.T, env []string) []string {
	t.Helper()
	out := []string{}
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	out = append(out, "PATH="+os.Getenv("PATH"))
	cmd := exec.Command("sh", "-c", "command -v atreides")
	cmd.Env = out
	if b, err := cmd.Output(); err == nil {
		t.Fatalf("atreides is on the test's own PATH (%s): the package's launcher would not be what runs", strings.TrimSpace(string(b)))
	}
	return out
}

// hostCommand runs a host CLI's management command (plugin install,
// extension uninstall) in dir with env and stdin /dev/null, bounded, and
// fails the test unless it exits 0 with want in its output.
func hostCommand(t *testing.T, dir string, env []string, want, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, nil
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s %s (%v):\n%s", filepath.Base(bin), strings.Join(args, " "), time.Since(start).Round(time.Millisecond), tail(string(out), 2000))
	if ctx.Err() != nil {
		t.Fatalf("%s %s did not finish within 2 minutes", filepath.Base(bin), strings.Join(args, " "))
	}
	if err != nil || !strings.Contains(string(out), want) {
		t.Fatalf("%s %s: %v; want %q in the output", filepath.Base(bin), strings.Join(args, " "), err, want)
	}
	return string(out)
}

// stateFiles lists what lies under the project's .atreides, relative and
// slash-separated, directories with a trailing slash.
func stateFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	root := filepath.Join(dir, ".atreides")
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if fi.IsDir() {
			rel += "/"
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}
