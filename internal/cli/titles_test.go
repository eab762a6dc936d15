package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTitlesNeverDriveTheTerminal: a task's title and description are
// the agent's words; `task show` prints an escape sequence in them (here
// OSC 52, which sets the user's clipboard) escaped, never raw, and keeps
// the description's lines.
func TestTitlesNeverDriveTheTerminal(t *testing.T) {
	proj := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	const osc52 = "\x1b]52;c;ZWNobyBwd25lZA==\x07"
	if out, err := runIn(t, proj, "task", "add", "fix it"+osc52, "--description", "line one\nline two"+osc52); err != nil {
		t.Fatalf("task add: %v\n%s", err, out)
	}
	out, err := runIn(t, proj, "task", "show", "1")
	if err != nil {
		t.Fatalf("task show: %v\n%s", err, out)
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("task show printed a raw escape sequence: %q", out)
	}
	if !strings.Contains(out, `fix it\x1b]52;c;`) || !strings.Contains(out, "line one\nline two") {
		t.Errorf("task show: want the title's escape shown escaped and the description's lines kept: %q", out)
	}
}
