package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// TestFeaturesDoctor: [features] hooks = false (or codex_hooks) in the
// project's or the user's config.toml is reported, a problem when
// atreides's hooks are installed.
func TestFeaturesDoctor(t *testing.T) {
	for _, tc := range []struct {
		name, toml string
		installed  bool
		want       string
	}{
		{"no key", "[features]\nother = true\n", true, ""},
		{"hooks on", "[features]\nhooks = true\n", true, ""},
		{"hooks off, installed", "[features]\nhooks = false\n", true, host.Problem},
		{"old key off, not installed", "[features]\ncodex_hooks = false\n", false, host.Note},
		{"not TOML", "[features\n", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, home := t.TempDir(), t.TempDir()
			env := host.Env{ProjectDir: root, Home: home, Getenv: func(string) string { return "" }}
			path := configPath(install.ScopeProject, root, codexHome(env))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.toml), 0o644); err != nil {
				t.Fatal(err)
			}
			var found []install.Status
			if tc.installed {
				found = append(found, install.Status{Path: "hooks.json", Events: []string{"PreToolUse"}})
			}
			got := featuresDoctor(env, found)
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("got %+v, want none", got)
			case tc.want != "" && (len(got) != 1 || got[0].Status != tc.want || !strings.Contains(got[0].Detail, "= false: Codex runs no hooks")):
				t.Errorf("got %+v, want one %s", got, tc.want)
			}
		})
	}
}
