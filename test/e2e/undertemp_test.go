package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnderTempWithoutHost runs what the end-to-end scenarios rely on in
// the layout that used to stop them: the checkout and HOME both under the
// temp directory, with a stray .atreides of one's own at its top (left by
// an earlier run there). No host is needed: the hook is fed Claude Code
// payloads directly. install must write into the scenario's project, not
// the stray one's directory; the session start must carry atreides's
// context; `rm -rf ~/victim` must be denied although HOME is under /tmp.
func TestUnderTempWithoutHost(t *testing.T) {
	bin := atreidesFor(t)
	tmp := t.TempDir() // stands for /tmp: TMPDIR points here
	home := filepath.Join(tmp, "home")
	proj := filepath.Join(tmp, "checkout", "test", "e2e", ".scratch", "run-1", "proj")
	victim := filepath.Join(home, "victim")
	for _, d := range []string{filepath.Join(tmp, ".atreides"), home, victim, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	initProject(t, proj)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + tmp, "LANG=C.UTF-8"}
	run := func(stdin string, args ...string) string {
		t.Helper()
		cmd := boundedCommand(t, bin, args...)
		cmd.Dir, cmd.Env = proj, env
		cmd.Stdin = strings.NewReader(stdin)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("atreides %s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		return out.String()
	}

	run("", "install", "claude", "--project")
	if _, err := os.Stat(filepath.Join(proj, ".claude", "settings.json")); err != nil {
		t.Errorf("install did not write the project's settings: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tmp, ".claude")); err == nil {
		t.Errorf("install wrote into the temp directory's top, the stray .atreides's directory")
	}

	start := run(`{"session_id":"s1","cwd":"`+proj+`","hook_event_name":"SessionStart","source":"startup"}`, "hook", "claude")
	if !strings.Contains(start, "atreides:session") { // < and > are escaped in JSON
		t.Errorf("SessionStart answer lacks the session context:\n%s", start)
	}
	if _, err := os.Stat(filepath.Join(proj, ".atreides")); err != nil {
		t.Errorf("the hook did not keep its state in the project: %v", err)
	}

	deny := run(`{"session_id":"s1","cwd":"`+proj+`","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~/victim"},"tool_use_id":"t1"}`, "hook", "claude")
	if !strings.Contains(deny, `"permissionDecision":"deny"`) {
		t.Errorf("rm -rf ~/victim with HOME under the temp directory was not denied:\n%s", deny)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("victim: %v", err)
	}
}
