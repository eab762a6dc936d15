package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/store/pgtest"
)

// TestTeamStoreOutage drives the real atreides binary of a project whose
// state is in a team's PostgreSQL database: atreides hands each command
// and hook to atreides-team, which links the driver. Then the database is
// killed in the middle of the run: the guard's decisions keep coming,
// since they need no store; a governed write fails closed and says why;
// and when the database is back, the events that waited in the outbox
// are replayed, the session's intent is still held and the write goes
// through.
func TestTeamStoreOutage(t *testing.T) {
	requireAtreides(t)
	cluster := pgtest.New(t)
	dsn := cluster.NewDatabase(t)
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := boundedCommand(t, "git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	writeFile := func(rel, text string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(".atreides/config.yaml", "store:\n  backend: postgres\ngovernance:\n  enabled: true\n")
	writeFile(".atreides/intents.yaml", "intents:\n  - id: docs\n    title: Docs\n    owned_scope: ['docs/**']\n")
	git("init", "-q")
	git("add", "-A")
	git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "start")
	// The home directory is never a project: HOME is beside the checkout.
	home := dir + "-home"
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "ATREIDES_STORE_DSN="+dsn, "HOME="+home, "CLAUDE_PROJECT_DIR="+dir)
	run := func(stdin string, args ...string) (string, string, int) {
		cmd := boundedCommand(t, atreidesBin, args...)
		cmd.Dir, cmd.Env = dir, env
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}
	hook := func(tool string, input map[string]string) (verdict, reason string) {
		b, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": dir, "hook_event_name": "PreToolUse",
			"tool_name": tool, "tool_input": input, "tool_use_id": "t-" + tool})
		out, stderr, _ := run(string(b), "hook", "claude")
		var ans struct {
			Out struct {
				Decision string `json:"permissionDecision"`
				Reason   string `json:"permissionDecisionReason"`
			} `json:"hookSpecificOutput"`
		}
		if strings.TrimSpace(out) != "" {
			if err := json.Unmarshal([]byte(out), &ans); err != nil {
				t.Fatalf("hook answer %q (%s): %v", out, stderr, err)
			}
		}
		return ans.Out.Decision, ans.Out.Reason
	}
	doc := filepath.Join(dir, "docs", "a.md")

	if out, stderr, code := run("", "trust", "--yes"); code != 0 {
		t.Fatalf("trust: exit %d: %s%s", code, out, stderr)
	}
	if out, stderr, code := run("", "store", "migrate"); code != 0 || !strings.Contains(out, "migrated from schema 0 to") {
		t.Fatalf("store migrate through atreides: exit %d: %s%s", code, out, stderr)
	}
	if out, stderr, code := run("", "intent", "select", "docs", "--session", "s1"); code != 0 {
		t.Fatalf("intent select: exit %d: %s%s", code, out, stderr)
	}
	if v, r := hook("Write", map[string]string{"file_path": doc, "content": "x"}); v == "deny" {
		t.Fatalf("governed write with the intent held, database up: denied: %s", r)
	}

	if err := cluster.Kill(); err != nil {
		t.Fatal(err)
	}
	if v, r := hook("Bash", map[string]string{"command": "rm -rf ~"}); v != "deny" {
		t.Errorf("the guard's decision while the database is down: %q %q, want deny", v, r)
	}
	v, r := hook("Write", map[string]string{"file_path": doc, "content": "y"})
	if v != "deny" || !strings.Contains(r, "the store is unavailable") || !strings.Contains(r, "unreachable") {
		t.Errorf("governed write while the database is down: %q %q, want a deny naming the store", v, r)
	}
	if strings.Contains(r, "password") {
		t.Errorf("the reason shows connection secrets: %q", r)
	}

	outbox := filepath.Join(dir, ".atreides", "outbox")
	if waiting, _ := filepath.Glob(filepath.Join(outbox, "*.json")); len(waiting) != 2 {
		t.Errorf("%d events wait in the outbox while the database is down, want 2", len(waiting))
	}

	if err := cluster.Start(); err != nil {
		t.Fatal(err)
	}
	if v, r := hook("Write", map[string]string{"file_path": doc, "content": "z"}); v == "deny" {
		t.Errorf("governed write after the database came back: denied: %s", r)
	}
	if waiting, _ := filepath.Glob(filepath.Join(outbox, "*.json")); len(waiting) != 0 {
		t.Errorf("%d events still wait in the outbox after the database came back", len(waiting))
	}
	if out, _, _ := run("", "status", "--json", "--session", "s1"); !strings.Contains(out, `"tool_calls": 4`) {
		t.Errorf("the session does not count the 4 tool calls, 2 of them made while the database was down: %s", out)
	}
	if out, _, _ := run("", "intent", "list", "--json"); !strings.Contains(out, `"holder": "s1"`) {
		t.Errorf("after the outage s1 no longer holds docs: %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".atreides", "state.db")); !os.IsNotExist(err) {
		t.Errorf("the team project wrote a local store: %v", err)
	}
}
