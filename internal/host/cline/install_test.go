package cline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

func TestHooksDir(t *testing.T) {
	if got := HooksDir(install.ScopeProject, "/p", "/h", "/c"); got != "/p/.clinerules/hooks" {
		t.Error(got)
	}
	if got := HooksDir(install.ScopeUser, "/p", "/h", ""); got != "/h/.cline/hooks" {
		t.Error(got)
	}
	if got := HooksDir(install.ScopeUser, "/p", "/h", "/c"); got != "/c/hooks" {
		t.Error(got)
	}
}

// A hook file of the user's in an event's place is left alone and
// reported; the others are installed, then removed with the directories
// install made, the user's file kept.
func TestInstallBesideForeignHook(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".clinerules", "hooks")
	backups := filepath.Join(root, ".atreides", "backups")
	bin := filepath.Join(t.TempDir(), "atreides")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, "TaskComplete")
	if err := os.WriteFile(mine, []byte("#!/bin/sh\necho done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	rep, err := Install(InstallOptions{Dir: dir, BinaryPath: bin, BackupDir: backups})
	if err != nil || len(rep.Added) != len(Events)-1 || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "TaskComplete") {
		t.Fatalf("install: %+v %v", rep, err)
	}
	st, _ := Inspect(filepath.Join(dir, Events[0]))
	if !slices.Equal(st.Missing, []string{"TaskComplete"}) || len(st.Notes) != 1 || len(st.Binaries) != 1 || !st.Binaries[0].Executable {
		t.Errorf("inspect: %+v", st)
	}
	if rep, err := Install(InstallOptions{Dir: dir, BinaryPath: bin, BackupDir: backups}); err != nil || rep.Action != install.ActionUnchanged {
		t.Errorf("second install: %+v %v", rep, err)
	}
	if rep, err := Uninstall(dir, backups); err != nil || rep.Action != install.ActionRemoved || len(rep.Removed) != len(Events)-1 {
		t.Errorf("uninstall: %+v %v", rep, err)
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "#!/bin/sh\necho done\n" {
		t.Errorf("the user's hook: %q %v", b, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left in %s: %v", dir, entries)
	}
}

// A new install makes the directories, and uninstall takes them away.
func TestInstallRemovesItsDirs(t *testing.T) {
	root := t.TempDir()
	dir := HooksDir(install.ScopeProject, root, "", "")
	backups := filepath.Join(t.TempDir(), "backups")
	if _, err := Install(InstallOptions{Dir: dir, BinaryPath: install.PortableBinary, BackupDir: backups, Timeout: 7}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "PreToolUse"))
	if err != nil || !strings.HasSuffix(string(b), "exec atreides hook cline --event PreToolUse --timeout 7\n") {
		t.Fatalf("hook file %q %v", b, err)
	}
	if _, err := Uninstall(dir, backups); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".clinerules")); !os.IsNotExist(err) {
		t.Errorf(".clinerules left: %v", err)
	}
}

// A hook file that lost its executable bit is reported: Cline skips it.
func TestInspectNotExecutable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hooks")
	if _, err := Install(InstallOptions{Dir: dir, BinaryPath: install.PortableBinary}); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "PreToolUse"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Inspect(filepath.Join(dir, "PreToolUse"))
	if err != nil || !strings.Contains(st.Disabled, "not executable") {
		t.Errorf("inspect: %+v %v", st, err)
	}
	if checks := clineDoctor(host.Env{Home: t.TempDir(), Getenv: func(string) string { return "" }}, []install.Status{st}); len(checks) == 0 || checks[0].Status != host.Problem {
		t.Errorf("doctor: %+v", checks)
	}
}
