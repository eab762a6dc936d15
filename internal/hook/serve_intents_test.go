package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeIntentsChange: with governance on, a server notices the
// project's intents file appear, change and go between two requests, as
// a hook process (which reads it afresh) does, although it keeps the
// handler list that reads it (servedHandlers).
func TestServeIntentsChange(t *testing.T) {
	dir := servedProject(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no user file of the machine's
	state := filepath.Join(dir, ".atreides")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, "config.yaml"), []byte("governance:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	intents := filepath.Join(state, "intents.yaml")
	declare := func(id string) func() error {
		return func() error {
			return os.WriteFile(intents, []byte(`intents:
  - id: `+id+`
    title: Write the docs
    goal: Document the API
    status: open
    owned_scope: ["src/**"]
    acceptance_criteria: ["the API is documented"]
`), 0o644)
		}
	}
	c := startServe(t, dir)
	// The block of a write before an intent is selected names the open
	// intents: what the server read of the file.
	for i, step := range []struct {
		name  string
		apply func() error
		says  string
	}{
		{"no intents", func() error { return nil }, "There is no open intent"},
		{"an intent declared", declare("docs"), "- docs: Write the docs"},
		{"unchanged", func() error { return nil }, "- docs: Write the docs"},
		// Same size, so only the time (and the text) tells.
		{"another intent", declare("api1"), "- api1: Write the docs"},
		{"removed", func() error { return os.Remove(intents) }, "There is no open intent"},
	} {
		if err := step.apply(); err != nil {
			t.Fatal(err)
		}
		r := c.call("tool.before", toolBefore(dir, "s1", fmt.Sprint("c", i), "echo x > src/a.md"))
		if block, _ := r["block"].(string); !strings.Contains(block, step.says) {
			t.Errorf("%s: %v, want a block saying %q", step.name, r, step.says)
		}
	}
}
