package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/project"
)

// TestLogSessionWholeIDInTrail: `log --session s1` is session s1 when the
// trail holds it, though its state record was pruned and a recorded
// session's id, s10, starts with s1.
func TestLogSessionWholeIDInTrail(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	claude, _ := all.ByName("claude")
	payload, _ := json.Marshal(map[string]any{"session_id": "s10", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]string{"command": "git status"}, "cwd": dir})
	var out, errb bytes.Buffer
	p := &hook.Process{In: bytes.NewReader(payload), Out: &out, Err: &errb, Getenv: os.Getenv, Getwd: func() (string, error) { return dir, nil }}
	if exit := hook.Answer(p, claude.Adapter, "", time.Minute); exit != 0 {
		t.Fatalf("hook: exit %d: %s%s", exit, out.Bytes(), errb.Bytes())
	}
	// s1's record in the trail, its state pruned long ago.
	old := &audit.Record{Time: "2026-11-01T10:00:00.000000Z", Host: "claude", Session: "s1", Event: "pre_tool", HostEvent: "PreToolUse", Tool: "Bash", Command: "ls", Verdict: "allow"}
	if err := audit.New(project.StateDir(dir), nil).Append(old); err != nil {
		t.Fatal(err)
	}
	got, err := runIn(t, dir, "log", "--json", "--session", "s1")
	if err != nil {
		t.Fatalf("log: %v\n%s", err, got)
	}
	if !strings.Contains(got, `"session":"s1"`) || strings.Contains(got, `"session":"s10"`) {
		t.Errorf("log --session s1: want s1's record alone:\n%s", got)
	}
}
