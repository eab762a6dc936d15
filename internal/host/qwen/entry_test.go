package qwen

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/installtest"
)

// doctor: a file that switches hooks off is a problem when atreides is
// installed; folder trust turned on by the user is a note for a project
// install.
func TestDoctor(t *testing.T) {
	env := host.Env{ProjectDir: t.TempDir(), Home: t.TempDir(), Getenv: func(string) string { return "" }}
	proj := qwenPath(env, install.ScopeProject)
	if _, err := Install(InstallOptions{SettingsPath: proj, BinaryPath: installtest.Bin}); err != nil {
		t.Fatal(err)
	}
	user := qwenPath(env, install.ScopeUser)
	os.MkdirAll(filepath.Dir(user), 0o755)
	os.WriteFile(user, []byte(`{"disableAllHooks": true, "security": {"folderTrust": {"enabled": true}}}`), 0o644)
	var found []install.Status
	for _, sc := range Entry.Scopes {
		st, err := Inspect(qwenPath(env, sc))
		if err != nil {
			t.Fatal(err)
		}
		found = append(found, st)
	}
	got := map[string]host.Check{}
	for _, c := range qwenDoctor(env, found) {
		got[c.Name] = c
	}
	if c := got["qwen hooks"]; c.Status != host.Problem || !strings.Contains(c.Detail, "disableAllHooks") {
		t.Errorf("hooks check = %+v", c)
	}
	if c := got["qwen trust"]; c.Status != host.Note {
		t.Errorf("trust check = %+v", c)
	}
	if _, ok := got["qwen MCP tools"]; !ok {
		t.Errorf("no MCP check: %+v", got)
	}
}

// The settings files that QWEN_HOME and QWEN_CODE_SYSTEM_SETTINGS_PATH
// move Qwen Code's user and system settings to can switch atreides off as
// ~/.qwen/settings.json can: the guard protects them too.
func TestHookFilesMoved(t *testing.T) {
	vars := map[string]string{"QWEN_HOME": "/srv/qwen", "QWEN_CODE_SYSTEM_SETTINGS_PATH": "/srv/sys/settings.json"}
	env := host.Env{ProjectDir: "/p", Home: "/h", Getenv: func(k string) string { return vars[k] }}
	got := Entry.HookFiles(env)
	for _, w := range []string{"/p/.qwen/settings.json", "/h/.qwen/settings.json", "/srv/qwen/settings.json", "/srv/sys/settings.json"} {
		if !slices.Contains(got, w) {
			t.Errorf("%s is not a hook file: %q", w, got)
		}
	}
	vars["QWEN_HOME"] = "~/q"
	if got := Entry.HookFiles(env); !slices.Contains(got, "/h/q/settings.json") {
		t.Errorf("QWEN_HOME=~/q: %q", got)
	}
}
