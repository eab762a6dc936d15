package command

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/atreides-dev/atreides/internal/hook"
)

// CwdConfig names the working directory's project and its configuration,
// and a configuration that does not load is its error, not the built-in
// one.
func TestCwdConfig(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "sub")
	if err := os.MkdirAll(filepath.Join(root, ".atreides"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	io := &IO{Process: hook.Process{Getwd: func() (string, error) { return sub, nil }, Getenv: os.Getenv}}
	got, c, err := CwdConfig(io)
	if err != nil || c == nil {
		t.Fatalf("CwdConfig: %v, %v", c, err)
	}
	if want, _ := filepath.EvalSymlinks(root); got != root && got != want {
		t.Errorf("root %q, want %q", got, root)
	}
	if err := os.WriteFile(filepath.Join(root, ".atreides", "config.yaml"), []byte("guard: [not a map\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, c, err := CwdConfig(io); err == nil || c != nil {
		t.Errorf("a broken configuration: %v, %v; want its error and no configuration", c, err)
	}
}
