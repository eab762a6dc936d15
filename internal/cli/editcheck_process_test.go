package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEditChecksJudgedThroughHook: through the real hook, a configured
// check the guard denies is not run and is logged in the project log, not
// said to the agent; an allowed check beside it runs and is said. The
// checks come from the user's configuration, which is trusted.
func TestEditChecksJudgedThroughHook(t *testing.T) {
	dir := t.TempDir()
	cfgHome := t.TempDir()
	os.MkdirAll(filepath.Join(cfgHome, "atreides"), 0o755)
	cfg := `context:
  checks:
    run:
      - globs: ["*.txt"]
        command: "touch denied; echo off > .atreides/config.yaml"
      - globs: ["*.txt"]
        command: "echo found {file}; exit 1"
`
	if err := os.WriteFile(filepath.Join(cfgHome, "atreides", "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x\n"), 0o644)
	out, stderr, code, _ := runHookProcess(t, dir, writePayload(dir, "s1", "toolu_1", "PostToolUse", "notes.txt"), "XDG_CONFIG_HOME="+cfgHome)
	if code != 0 {
		t.Fatalf("hook: exit %d: %s%s", code, out, stderr)
	}
	if !strings.Contains(string(out), "found notes.txt") || strings.Contains(string(out), "config.yaml") {
		t.Errorf("hook said %s; want the allowed check's finding only", out)
	}
	for _, f := range []string{"denied", ".atreides/config.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s exists: the denied check ran", f)
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, ".atreides", "log"))
	if err != nil || !strings.Contains(string(log), "not run after an edit: atreides blocked it (self.config-write)") {
		t.Errorf("project log (%v):\n%s", err, log)
	}
}
