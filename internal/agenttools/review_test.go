package agenttools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/config/configtest"
)

// TestReviewModels: the review tool runs the review on two reviewers
// whose answers share one finding, ranks it first in the report it
// returns and writes, names the reviewer without a command, and an
// earlier review is collected again by its id.
func TestReviewModels(t *testing.T) {
	configtest.Home(t)
	root := t.TempDir()
	answers := map[string]string{
		"alpha": `Done. {"findings": [{"file": "db.go", "line": 7, "severity": "low", "title": "Rows not closed"}, {"file": "a.go", "line": 1, "severity": "high", "title": "Off by one"}]}`,
		"beta":  `{"findings": [{"file": "db.go", "line": 8, "severity": "high", "title": "rows never closed"}], "x": 1} ok`,
	}
	// alpha and beta have no read-only mode atreides knows: the reviewers
	// run as a full agent here (background.Command refuses a read-only one).
	cfg := "review:\n  agent: build\nbackground:\n  commands:\n"
	for host, a := range answers {
		f := filepath.Join(root, host+".txt")
		if err := os.WriteFile(f, []byte(a), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg += "    " + host + ": [cat, " + f + "]\n"
	}
	if err := os.MkdirAll(filepath.Join(root, ".atreides"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".atreides", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	configtest.Trust(t, root)
	env := envOf(root, "s1")
	out := must(t, env, "review_models", `{"focus":"the db layer","hosts":["alpha","beta","gamma"],"wait":60}`)
	for _, w := range []string{
		"2 of 3 answered",
		"1. **[high] Rows not closed** — `db.go:7-8` — 2/2: alpha, beta",
		"2. **[high] Off by one**",
		"| gamma |  | failed: no headless command",
		"Report: .atreides/reviews/review-1.md",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("review_models lacks %q:\n%s", w, out)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".atreides", "reviews", "review-1.json")); err != nil {
		t.Error(err)
	}
	if again := must(t, env, "review_models", `{"review_id":"review-1","wait":0}`); !strings.Contains(again, "2/2: alpha, beta") {
		t.Errorf("collecting review-1 again:\n%s", again)
	}
	if _, err := call(t, envOf(root, "s2"), "review_models", `{"review_id":"review-1"}`); err == nil || !strings.Contains(err.Error(), "another session") {
		t.Errorf("another session collected review-1: %v", err)
	}
}
