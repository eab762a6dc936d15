package install

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHookFiles: every settings file install writes to is listed (one
// source for the guard), and nothing relative slips in when the home or
// the project is unknown.
func TestHookFiles(t *testing.T) {
	proj, home := "/p", "/h"
	got := HookFiles(proj, home, HookEnv{CodexHome: "/c", OpenCodeConfigDir: "/oc", OpenCodeConfig: "/x/oc.json"})
	want := []string{
		ClaudeSettingsPath(ScopeProject, proj, home), ClaudeSettingsPath(ScopeLocal, proj, home),
		ClaudeSettingsPath(ScopeUser, proj, home), ClaudeMCPPath(proj),
		GeminiSettingsPath(ScopeProject, proj, home), GeminiSettingsPath(ScopeUser, proj, home),
		CodexHooksPath(ScopeProject, proj, ""), "/c/hooks.json", "/h/.codex/hooks.json", "/h/.codex/config.toml",
		filepath.Dir(OpenCodePluginPath(OpenCodeConfigDir(ScopeProject, proj, ""))) + "/",
		"/h/.config/opencode/plugin/", "/h/.config/opencode/plugins/", "/h/.config/opencode/opencode.jsonc",
		"/p/opencode.json", "/p/.opencode/opencode.json", "/oc/plugin/", "/x/oc.json",
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("HookFiles lacks %s", w)
		}
	}
	for _, tc := range []struct{ proj, home string }{{"", "/h"}, {"/p", ""}, {"", ""}} {
		for _, p := range HookFiles(tc.proj, tc.home, HookEnv{}) {
			if !filepath.IsAbs(p) {
				t.Errorf("HookFiles(%q, %q) has a relative path %q", tc.proj, tc.home, p)
			}
			if tc.proj == "" && strings.HasPrefix(p, "/p/") || tc.home == "" && strings.HasPrefix(p, "/h/") {
				t.Errorf("HookFiles(%q, %q) = %q", tc.proj, tc.home, p)
			}
		}
	}
}
