package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTeamLeaseFromAnotherCheckout: two checkouts of one team project, on
// one machine here, with governance on. A session in the first holds an
// intent; the second checkout's agent, refused a write in its scope and
// the intent itself, is told that the holder is in the first checkout, and
// `intent list` there says so too; the first checkout's own view is
// unmarked.
func TestTeamLeaseFromAnotherCheckout(t *testing.T) {
	a, b, dsn := teamCheckouts(t, teamConfig+"governance:\n  enabled: true\n")
	env := []string{"ATREIDES_STORE_DSN=" + dsn}
	run := func(dir string, stdin []byte, args ...string) (string, int) {
		t.Helper()
		out, stderr, code, _ := runMain(t, time.Minute, dir, stdin, env, args...)
		return string(out) + string(stderr), code
	}
	if out, code := run(a, nil, "intent", "select", "docs", "--session", "sa"); code != 0 {
		t.Fatalf("intent select in a: exit %d: %s", code, out)
	}
	from := "session sa (from checkout " + a + ")"

	out, _ := run(b, writePayload(b, "sb", "toolu_1", "PreToolUse", "docs/x.md"), "hook", "claude")
	if !strings.Contains(out, `"deny"`) || !strings.Contains(out, "[held by "+from+" since") {
		t.Errorf("b's write in the scope of a's intent: %s", out)
	}
	if out, code := run(b, nil, "intent", "select", "docs", "--session", "sb"); code == 0 || !strings.Contains(out, "held by "+from+" since") {
		t.Errorf("b selecting a's intent: exit %d: %s", code, out)
	}
	for dir, want := range map[string]string{b: "by sa (from checkout " + a + ") since", a: "by sa since"} {
		if out, code := run(dir, nil, "intent", "list"); code != 0 || !strings.Contains(out, want) {
			t.Errorf("intent list in %s: exit %d, want %q in:\n%s", filepath.Base(dir), code, want, out)
		}
	}
}
