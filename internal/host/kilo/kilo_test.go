package kilo

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/internal/install"
)

// TestCaptured: every request the plugin would have sent in a real Kilo
// Code 7.7.7 run (captured in-repo, see the testdata README) decodes as a
// Kilo event with Kilo's facts, and the tools normalise to the engine's
// names (background_process as a shell command).
func TestCaptured(t *testing.T) {
	files := hosttest.CapturedFiles(t, "kilo")
	tools := map[string]event.ToolName{}
	kinds := map[event.Kind]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := Entry.Adapter.Decode(data, func(string) string { return "" }, time.Unix(0, 0))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if ev.Host != Host || ev.Facts != &Facts {
			t.Errorf("%s: decoded for host %q", filepath.Base(f), ev.Host)
		}
		kinds[ev.Kind] = true
		if ev.Kind == event.PreTool {
			tools[ev.Tool.Raw] = ev.Tool.Name
			if ev.Tool.Name == event.Shell && ev.Tool.Command == "" {
				t.Errorf("%s: shell call without its command", filepath.Base(f))
			}
		}
		if ans := Entry.Adapter.Encode(ev, &event.Decision{Verdict: event.Deny, Reason: "r", Block: true, BlockReason: "b"}); len(ans.Stdout) > 0 && !json.Valid(ans.Stdout) {
			t.Errorf("%s: invalid answer %q", filepath.Base(f), ans.Stdout)
		}
	}
	want := map[string]event.ToolName{"bash": event.Shell, "read": event.Read, "todowrite": event.Todo, "background_process": event.Shell}
	for raw, name := range want {
		if tools[raw] != name {
			t.Errorf("tool %s: %q, want %q (saw %v)", raw, tools[raw], name, tools)
		}
	}
	for _, k := range []event.Kind{event.PreTool, event.PostTool, event.SessionStart, event.Stop, event.UserPrompt} {
		if !kinds[k] {
			t.Errorf("no captured %s event (saw %v)", k, kinds)
		}
	}
}

func fakeBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "atreides")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestInstallOffline: a project install writes OpenCode's plugin, byte
// for byte, to .kilo/plugin/, marks Kilo's own dependency install
// (@kilocode/plugin) done in .kilo and ~/.config/kilo, reports as Kilo,
// and uninstall leaves nothing behind.
func TestInstallOffline(t *testing.T) {
	proj, home := t.TempDir(), t.TempDir()
	env := host.Env{ProjectDir: proj, Home: home, Getenv: func(string) string { return "" }}
	bin := fakeBinary(t)
	rep, err := Entry.Install(env, host.Options{Scope: install.ScopeProject, Binary: bin, Offline: true})
	if err != nil || rep.Host != Host || rep.Action != install.ActionInstalled {
		t.Fatalf("install: %+v %v", rep, err)
	}
	plugin := filepath.Join(proj, ".kilo", "plugin", opencode.PluginFile)
	if p := Entry.Path(env, install.ScopeProject); p != plugin {
		t.Errorf("Path = %s, want %s", p, plugin)
	}
	got, err := os.ReadFile(plugin)
	if err != nil {
		t.Fatal(err)
	}
	ocDir := t.TempDir()
	if _, err := opencode.Install(opencode.InstallOptions{ConfigDir: ocDir, BinaryPath: bin}); err != nil {
		t.Fatal(err)
	}
	if oc, _ := os.ReadFile(opencode.PluginPath(ocDir)); string(oc) != string(got) {
		t.Error("Kilo's plugin file differs from OpenCode's: one plugin source, one file")
	}
	for _, d := range []string{filepath.Join(proj, ".kilo"), filepath.Join(home, ".config", "kilo")} {
		lock, err := os.ReadFile(filepath.Join(d, "package-lock.json"))
		if err != nil || !strings.Contains(string(lock), `"@kilocode/plugin": "*"`) {
			t.Errorf("%s: no offline marker for @kilocode/plugin: %v %s", d, err, lock)
		}
	}
	st, err := Entry.Inspect(plugin)
	if err != nil || !st.Installed() || st.Host != Host {
		t.Errorf("inspect: %+v %v", st, err)
	}
	if rep, err := Entry.Uninstall(env, install.ScopeProject); err != nil || rep.Action != install.ActionRemoved {
		t.Fatalf("uninstall: %+v %v", rep, err)
	}
	if _, err := os.Stat(filepath.Join(proj, ".kilo")); err == nil {
		t.Error(".kilo left behind")
	}
}

// TestUserScopeXDG: the user install goes to $XDG_CONFIG_HOME/kilo when
// it is set, and that directory is a hook file.
func TestUserScopeXDG(t *testing.T) {
	xdg := t.TempDir()
	env := host.Env{ProjectDir: "/p", Home: "/h", Getenv: func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return xdg
		}
		return ""
	}}
	want := filepath.Join(xdg, "kilo", "plugin", opencode.PluginFile)
	if got := Entry.Path(env, install.ScopeUser); got != want {
		t.Errorf("user path %s, want %s", got, want)
	}
	files := Entry.HookFiles(env)
	for _, f := range []string{filepath.Join(xdg, "kilo", "plugin") + "/", "/p/.kilo/plugin/", "/p/kilo.json", "/h/.kilocode/plugin/"} {
		if !contains(files, f) {
			t.Errorf("%s is not a hook file: %q", f, files)
		}
	}
	for _, f := range files {
		if strings.Contains(f, ".opencode") {
			t.Errorf("%s: Kilo does not load .opencode", f)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestDoctor: a project plugin under KILO_DISABLE_PROJECT_CONFIG does not
// load; OpenCode's plugin alone does not guard Kilo.
func TestDoctor(t *testing.T) {
	proj := t.TempDir()
	env := host.Env{ProjectDir: proj, Home: t.TempDir(), Getenv: func(k string) string {
		if k == "KILO_DISABLE_PROJECT_CONFIG" {
			return "1"
		}
		return ""
	}}
	ok := install.Status{Exists: true, Parses: true, Events: []string{"tool.execute.before"}}
	if got := Entry.Doctor(env, []install.Status{ok, {}}); len(got) != 1 || got[0].Status != host.Problem {
		t.Errorf("disabled project config: %+v", got)
	}
	env.Getenv = func(string) string { return "" }
	oc := opencode.PluginPath(filepath.Join(proj, ".opencode"))
	os.MkdirAll(filepath.Dir(oc), 0o755)
	os.WriteFile(oc, []byte("x"), 0o644)
	if got := Entry.Doctor(env, []install.Status{{}, {}}); len(got) != 1 || got[0].Status != host.Note {
		t.Errorf("OpenCode's plugin only: %+v", got)
	}
	if got := Entry.Doctor(env, []install.Status{ok, {}}); len(got) != 0 {
		t.Errorf("installed: %+v", got)
	}
}
