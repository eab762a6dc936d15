package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
)

// TestStyledOutput: plain bytes when Color says no, escapes when it says
// yes, and a painted column still aligned.
func TestStyledOutput(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	run := func(color bool, args ...string) string {
		var out bytes.Buffer
		io := &command.IO{Process: hook.Process{Out: &out, Err: &out, Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return dir, nil }}, Color: func() bool { return color }}
		if err := runArgs(io, args); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		return out.String()
	}
	if out := run(false, "check", "--", "rm -rf /"); strings.Contains(out, "\x1b[") {
		t.Errorf("escapes without colour: %q", out)
	}
	if out := run(true, "check", "--", "rm -rf /"); !strings.HasPrefix(out, "\x1b[31mdeny\x1b[0m") {
		t.Errorf("deny not red: %q", out)
	}
	run(false, "intent", "add", "--id", "a", "--title", "A", "--scope", "a/**")
	run(false, "intent", "add", "--id", "longer-id", "--title", "B", "--scope", "b/**")
	run(false, "intent", "close", "a")
	for _, color := range []bool{false, true} {
		lines := strings.Split(strings.TrimSpace(run(color, "intent", "list")), "\n")
		if len(lines) != 2 || strings.Index(lines[0], "A ") != strings.Index(lines[1], "B ") {
			t.Errorf("color=%v: titles not aligned:\n%s", color, strings.Join(lines, "\n"))
		}
	}
}
