package opencode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/install"
)

func fakeBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "atreides")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestOpenCodeInstallIdempotentAndUninstall(t *testing.T) {
	proj := t.TempDir()
	dir := ConfigDir(install.ScopeProject, proj, "/nowhere")
	// The user's own plugin and config stay as they are.
	other := filepath.Join(dir, "plugin", "mine.ts")
	if err := os.MkdirAll(filepath.Dir(other), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(other, []byte("export const Mine = async () => ({})\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "opencode.json"), []byte(`{"plugin":["x"]}`), 0o644)

	bin := fakeBinary(t)
	rep, err := Install(InstallOptions{ConfigDir: dir, BinaryPath: bin})
	if err != nil || rep.Action != install.ActionInstalled {
		t.Fatalf("install: %+v %v", rep, err)
	}
	data, _ := os.ReadFile(pluginPath(dir))
	if !strings.Contains(string(data), `const DEFAULT_BIN = "`+bin+`"`) || !strings.Contains(string(data), "export const AtreidesPlugin") {
		t.Fatalf("plugin file:\n%.400s", data)
	}
	if rep, err := Install(InstallOptions{ConfigDir: dir, BinaryPath: bin}); err != nil || rep.Action != install.ActionUnchanged {
		t.Errorf("second install: %+v %v", rep, err)
	}
	bin2 := fakeBinary(t)
	if rep, err := Install(InstallOptions{ConfigDir: dir, BinaryPath: bin2}); err != nil || rep.Action != install.ActionUpdated {
		t.Errorf("install with another binary: %+v %v", rep, err)
	}
	st, err := Inspect(pluginPath(dir))
	if err != nil || !st.Installed() || len(st.Binaries) != 1 || st.Binaries[0].Command != bin2 || !st.Binaries[0].Executable {
		t.Errorf("inspect: %+v %v", st, err)
	}
	if rep, err := Uninstall(dir, "", nil); err != nil || rep.Action != install.ActionRemoved {
		t.Errorf("uninstall: %+v %v", rep, err)
	}
	if _, err := os.Stat(pluginPath(dir)); !os.IsNotExist(err) {
		t.Error("plugin still there")
	}
	if b, _ := os.ReadFile(other); !strings.Contains(string(b), "Mine") {
		t.Error("the user's plugin was touched")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "opencode.json")); string(b) != `{"plugin":["x"]}` {
		t.Error("opencode.json was touched")
	}
	if rep, _ := Uninstall(dir, "", nil); rep.Action != install.ActionNothingToDo {
		t.Errorf("second uninstall: %+v", rep)
	}
	if st, _ := Inspect(pluginPath(dir)); st.Exists || st.Installed() {
		t.Errorf("inspect after uninstall: %+v", st)
	}
}

func TestOpenCodeRefusesForeignFile(t *testing.T) {
	dir := t.TempDir()
	path := pluginPath(dir)
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("export const X = 1\n"), 0o644)
	if _, err := Install(InstallOptions{ConfigDir: dir, BinaryPath: fakeBinary(t)}); err == nil {
		t.Error("overwrote a foreign atreides.ts")
	}
	if rep, _ := Uninstall(dir, "", nil); rep.Action != install.ActionNothingToDo {
		t.Errorf("uninstall removed a foreign file: %+v", rep)
	}
}

// TestOpenCodeOffline: the marker OpenCode's installer accepts is written
// where nothing was, never over an existing install, and removed only
// while untouched.
func TestOpenCodeOffline(t *testing.T) {
	fresh, used := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(used, "node_modules", "zod"), 0o755)
	rep, err := Install(InstallOptions{ConfigDir: fresh, BinaryPath: fakeBinary(t), Offline: []string{fresh, used}})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(fresh, "package-lock.json")); !strings.Contains(string(b), `"@opencode-ai/plugin"`) {
		t.Errorf("no lock in %s: %+v", fresh, rep)
	}
	if _, err := os.Stat(filepath.Join(used, "package-lock.json")); err == nil {
		t.Error("lock written over an existing node_modules")
	}
	if _, err := Uninstall(fresh, "", []string{fresh, used}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(fresh, "package-lock.json")); err == nil {
		t.Error("marker left after uninstall")
	}
	if _, err := os.Stat(filepath.Join(used, "node_modules", "zod")); err != nil {
		t.Error("an existing install was touched")
	}
}

// TestOfflineMadeDir: a config directory the offline marker had to make
// (the user's, for a project install) goes with the marker once empty;
// one that was there stays, and so does one that gained a file since.
func TestOfflineMadeDir(t *testing.T) {
	base := t.TempDir()
	made, there, filled := filepath.Join(base, "made"), filepath.Join(base, "there"), filepath.Join(base, "filled")
	os.MkdirAll(there, 0o755)
	for _, d := range []string{made, there, filled} {
		if ok, err := prefillDeps(d, "@opencode-ai/plugin"); !ok || err != nil {
			t.Fatalf("prefill %s: %v, %v", d, ok, err)
		}
	}
	os.WriteFile(filepath.Join(filled, "opencode.json"), []byte("{}\n"), 0o644)
	for _, d := range []string{made, there, filled} {
		if !removePrefill(d, "@opencode-ai/plugin") {
			t.Errorf("marker in %s not removed", d)
		}
	}
	if _, err := os.Lstat(made); !os.IsNotExist(err) {
		t.Errorf("the directory the marker made is left: %v", err)
	}
	for _, d := range []string{there, filled} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s went: %v", d, err)
		}
	}
}

// TestInspectPortableBinary: a project install's plugin names a bare
// atreides, which doctor looks up in PATH (not as a file in the cwd).
func TestInspectPortableBinary(t *testing.T) {
	bin := fakeBinary(t)
	t.Setenv("PATH", filepath.Dir(bin))
	if b := pluginBinaryStatus(install.PortableBinary); !b.Executable || b.Resolved != bin {
		t.Errorf("on PATH: %+v", b)
	}
	t.Setenv("PATH", t.TempDir())
	if b := pluginBinaryStatus(install.PortableBinary); b.Executable || b.Resolved != "" {
		t.Errorf("not on PATH: %+v", b)
	}
}
