package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
)

// TestAnchorCommand drives `atreides anchor` in process.
func TestAnchorCommand(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(dir+"/.git", 0o755)
	run := func(args ...string) (string, string, error) {
		var out, errb bytes.Buffer
		io := &command.IO{Process: hook.Process{Out: &out, Err: &errb, Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return dir, nil }}}
		err := runArgs(io, append([]string{"anchor"}, args...))
		return out.String(), errb.String(), err
	}
	if out, _, err := run("add", "--priority", "critical", "--kind", "constraint", "never", "touch", "prod"); err != nil || !strings.Contains(out, "added anchor #1 (critical constraint): never touch prod") {
		t.Fatalf("add: %q %v", out, err)
	}
	if _, _, err := run("add", "--priority", "urgent", "x"); err == nil || !strings.Contains(err.Error(), "not one of critical") {
		t.Errorf("bad priority: %v", err)
	}
	if _, _, err := run("add"); err == nil {
		t.Errorf("add without text succeeded")
	}
	out, _, err := run("list")
	if err != nil || out != "1\tcritical\tconstraint\tnever touch prod\tjust now\n" {
		t.Errorf("list: %q %v", out, err)
	}
	out, _, _ = run("list", "--json")
	if !strings.Contains(out, `"stale": false`) {
		t.Errorf("list --json: %s", out)
	}
	if _, _, err := run("rm", "1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run("rm", "1"); err == nil || !strings.Contains(err.Error(), "no anchor #1") {
		t.Errorf("rm twice: %v", err)
	}
	if out, _, _ := run("list"); !strings.Contains(out, "no anchors") {
		t.Errorf("list after rm: %q", out)
	}
}
