package hook

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// TestCompactionPrompt: OpenCode's compaction prompt comes from the
// project's context.monitor.compaction_prompt; none keeps OpenCode's.
func TestCompactionPrompt(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	prompt := compactionPrompt(&servedRoots{})
	ev := &event.Event{ProjectDir: root, Cwd: root}
	if got := prompt(ev); got != "" {
		t.Errorf("no config: %q", got)
	}
	cfg := filepath.Join(root, ".atreides", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("context:\n  monitor:\n    compaction_prompt: \"Summarize: goal, files, next step.\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := prompt(ev); got != "Summarize: goal, files, next step." {
		t.Errorf("configured: %q", got)
	}
}
