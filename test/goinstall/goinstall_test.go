// Package goinstall proves the 'go install' channel: atreides installed
// on its own by 'go install <module>/cmd/atreides@latest' works, and its
// companion programs are installed beside it, at the same version, the
// first time a command needs one. The module is served from a file proxy
// made of this checkout (the published module cannot be reached from CI);
// its dependencies come from the module cache 'go mod download' filled.
package goinstall

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	module  = "github.com/atreides-dev/atreides"
	version = "v0.0.1-goinstall"
)

func TestGoInstallLatest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every program from a module proxy: minutes")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	writeModule(t, root, proxy)
	gobin := filepath.Join(tmp, "bin")
	env := goEnv(t, proxy, tmp, gobin)

	run(t, env, tmp, 10*time.Minute, "go", "install", module+"/cmd/atreides@latest")
	atreides := filepath.Join(gobin, "atreides")
	if out := run(t, env, tmp, time.Minute, atreides, "version"); !strings.Contains(out, version) {
		t.Errorf("atreides version = %q, want it to name %s (read from the build info)", out, version)
	}
	for _, p := range []string{"atreides-mcp", "atreides-ui", "atreides-otel", "atreides-team"} {
		if _, err := os.Stat(filepath.Join(gobin, p)); err == nil {
			t.Fatalf("%s installed before any command needed it", p)
		}
	}

	// The first command that needs a companion installs them all, says so
	// on stderr and keeps stdout for the companion (an MCP stream).
	out, errOut := runSplit(t, env, tmp, 10*time.Minute, atreides, "mcp", "--version")
	if !strings.Contains(out, "atreides-mcp "+version) || strings.Contains(out, "go install") {
		t.Errorf("atreides mcp --version stdout = %q, want only the companion's version line", out)
	}
	if !strings.Contains(errOut, "installing the companion programs") {
		t.Errorf("stderr = %q, want the one-time install message", errOut)
	}
	for _, p := range []string{"atreides-mcp", "atreides-ui", "atreides-otel", "atreides-team"} {
		if _, err := os.Stat(filepath.Join(gobin, p)); err != nil {
			t.Errorf("%s not installed beside atreides: %v", p, err)
		}
	}
	// Found beside it from now on: no second build.
	if _, errOut := runSplit(t, env, tmp, time.Minute, atreides, "mcp", "--version"); strings.Contains(errOut, "installing") {
		t.Errorf("second run installed again: %q", errOut)
	}
}

// repoRoot is the checkout this test runs in.
func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("git rev-parse: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// writeModule lays out a file proxy (GOPROXY=file://) serving the module
// at version: the zip holds the files git tracks or would track, as the
// published module would.
func writeModule(t *testing.T, root, proxy string) {
	t.Helper()
	dir := filepath.Join(proxy, filepath.FromSlash(module), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue // tracked but deleted in the work tree
		}
		w, err := zw.Create(module + "@" + version + "/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": fmt.Appendf(nil, `{"Version":%q,"Time":"2026-11-29T00:00:00Z"}`, version),
		version + ".mod":  mod,
		version + ".zip":  buf.Bytes(),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// goEnv is the go command's environment: the module from the file proxy,
// the rest from the module cache's download directory, no checksum
// database (it cannot know this version), a module cache of the test's
// own (removable: -modcacherw) and the build cache shared.
func goEnv(t *testing.T, proxy, tmp, gobin string) []string {
	t.Helper()
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	downloads := filepath.Join(strings.TrimSpace(string(modcache)), "cache", "download")
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "GO") || k == "GOCACHE" || k == "GOROOT" {
			env = append(env, kv)
		}
	}
	return append(env,
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(downloads),
		"GOSUMDB=off", "GOTOOLCHAIN=local", "GOFLAGS=-modcacherw",
		"GOMODCACHE="+filepath.Join(tmp, "modcache"), "GOPATH="+filepath.Join(tmp, "gopath"),
		"GOBIN="+gobin, "PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// run runs name in dir and returns its combined output, failing the test
// on an error or after limit.
func run(t *testing.T, env []string, dir string, limit time.Duration, name string, args ...string) string {
	t.Helper()
	out, errOut := runSplit(t, env, dir, limit, name, args...)
	return out + errOut
}

// runSplit is run with stdout and stderr apart.
func runSplit(t *testing.T, env []string, dir string, limit time.Duration, name string, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env, cmd.Dir = env, dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v (after at most %s)\nstdout: %s\nstderr: %s", name, strings.Join(args, " "), err, limit, out.String(), errOut.String())
	}
	return out.String(), errOut.String()
}
