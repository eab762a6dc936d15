package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// TestKeywordSettings: without a config file the ultrawork mode is there
// (its text comes from the documented defaults, not a Go copy); a project
// file adds and removes modes and sets the variant.
func TestKeywordSettings(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir+"/xdg")
	o := NewSettings(dir).keywords()
	if len(o.Modes) != 1 || o.Variant != "" {
		t.Fatalf("built-in keyword options: %+v", o)
	}
	if m := o.Modes[0]; m.Name != "ultrawork" || !m.Once || m.Priority != event.High ||
		strings.Join(m.Keywords, ",") != "ultrawork,ulw" || !strings.Contains(m.Text, "maximum effort") {
		t.Errorf("built-in ultrawork mode: %+v", m)
	}

	if err := os.MkdirAll(filepath.Join(dir, ".atreides"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "context:\n  keywords:\n    variant: high\n    modes:\n      ultrawork: {keywords: []}\n      tdd: {keywords: [tdd, test first], text: Write the failing test first.}\n"
	if err := os.WriteFile(filepath.Join(dir, ".atreides", "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	o = NewSettings(dir).keywords()
	if len(o.Modes) != 2 || o.Modes[0].Name != "tdd" || o.Modes[0].Once || o.Modes[0].Priority != event.Normal || o.Variant != "high" {
		t.Fatalf("keyword options from the project file: %+v", o)
	}
	if u := o.Modes[1]; u.Name != "ultrawork" || len(u.Keywords) != 0 {
		t.Errorf("ultrawork switched off by keywords: [] still has keywords: %+v", u)
	}
}
