package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/install/installtest"
)

// runStatus runs atreides with args in the project and returns its exit
// status and its stderr, failing the test only when it cannot run.
func (s *scratch) runStatus(args ...string) (int, string) {
	s.t.Helper()
	cmd := exec.Command(s.bin, args...)
	cmd.Dir, cmd.Env = s.proj, s.env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		s.t.Fatalf("%v: still running after 60 s", args)
	}
	return cmd.ProcessState.ExitCode(), errb.String()
}

// mkfile writes content to path, making its directories.
func mkfile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestPurgeRefusesLinkedStateDir: when atreides's state directory, or its
// backups directory, is a symbolic link, purge removes nothing through it
// (the user's own files behind it stay), says so, does the rest and exits
// non-zero.
func TestPurgeRefusesLinkedStateDir(t *testing.T) {
	for _, link := range []string{".local/state/atreides", ".local/state/atreides/backups"} {
		t.Run(link, func(t *testing.T) {
			s := newScratch(t)
			important := filepath.Join(s.home, "important")
			mkfile(t, filepath.Join(important, "backups", "thesis.txt"), "mine\n")
			target := important
			if strings.HasSuffix(link, "backups") {
				target = filepath.Join(important, "backups")
			}
			symlink(t, target, filepath.Join(s.home, filepath.FromSlash(link)))
			s.write(".atreides/config.yaml", "version: 1\n")
			before := treeHashes(t, important)
			code, stderr := s.runStatus("uninstall", "--purge", "--yes")
			if code == 0 {
				t.Errorf("purge through a linked state directory exited 0; stderr: %s", stderr)
			}
			if !strings.Contains(stderr, "symbolic link") {
				t.Errorf("purge does not say why it stopped: %s", stderr)
			}
			installtest.SameTrees(t, before, treeHashes(t, important))
			if _, err := os.Lstat(filepath.Join(s.home, filepath.FromSlash(link))); err != nil {
				t.Errorf("the link went: %v", err)
			}
			if _, err := os.Lstat(filepath.Join(s.proj, ".atreides")); err == nil {
				t.Error("the rest of the purge was not done: .atreides is still there")
			}
		})
	}
}

// TestPurgeLinkedAtreidesDir: a .atreides that is a symbolic link (a
// cloned repository may hold one) goes as a link: what it points to stays
// byte for byte.
func TestPurgeLinkedAtreidesDir(t *testing.T) {
	s := newScratch(t)
	elsewhere := filepath.Join(s.root, "elsewhere")
	mkfile(t, filepath.Join(elsewhere, "config.yaml"), "version: 1\n")
	mkfile(t, filepath.Join(elsewhere, "backups", "keep.txt"), "mine\n")
	mkfile(t, filepath.Join(elsewhere, "state.db"), "not a database\n")
	symlink(t, elsewhere, filepath.Join(s.proj, ".atreides"))
	before := treeHashes(t, elsewhere)
	code, stderr := s.runStatus("uninstall", "--purge", "--yes")
	t.Logf("exit %d: %s", code, stderr)
	installtest.SameTrees(t, before, treeHashes(t, elsewhere))
	if _, err := os.Lstat(filepath.Join(s.proj, ".atreides")); err == nil {
		t.Error("the link .atreides is still there")
	}
}

// TestPurgeLinkedUserConfig: a user configuration directory that is a
// link (a dotfiles manager's) keeps the link and the user's files behind
// it. A trust record that is itself a link is refused, as trust refuses
// it: the link and its target stay, the purge says so and exits non-zero.
func TestPurgeLinkedUserConfig(t *testing.T) {
	s := newScratch(t)
	dots := filepath.Join(s.root, "dotfiles")
	mkfile(t, filepath.Join(dots, "atreides", "config.yaml"), "version: 1\n")
	mkfile(t, filepath.Join(dots, "trusted-elsewhere.json"), `{"version":1,"projects":{}}`+"\n")
	symlink(t, filepath.Join(dots, "atreides"), filepath.Join(s.home, ".config", "atreides"))
	s.write(".atreides/config.yaml", "version: 1\nguard:\n  enabled: true\n")
	s.atreides([]string{"trust", "--yes"})
	// The record made a link now, as a dotfiles manager would.
	rec := filepath.Join(dots, "atreides", "trusted.json")
	data, err := os.ReadFile(rec)
	if err != nil || !strings.Contains(string(data), "proj") {
		t.Fatalf("trust wrote no record: %v %s", err, data)
	}
	mkfile(t, filepath.Join(dots, "trusted-elsewhere.json"), string(data))
	if err := os.Remove(rec); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(dots, "trusted-elsewhere.json"), rec)
	before := treeHashes(t, filepath.Join(dots, "trusted-elsewhere.json"), filepath.Join(dots, "atreides", "config.yaml"))
	code, stderr := s.runStatus("uninstall", "--purge", "--yes")
	if code == 0 || !strings.Contains(stderr, "symbolic link") {
		t.Errorf("a linked trust record: exit %d, stderr %s", code, stderr)
	}
	installtest.SameTrees(t, before, treeHashes(t, filepath.Join(dots, "trusted-elsewhere.json"), filepath.Join(dots, "atreides", "config.yaml")))
	if fi, err := os.Lstat(filepath.Join(s.home, ".config", "atreides")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the user's linked configuration directory changed: %v %v", fi, err)
	}
	if fi, err := os.Lstat(rec); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the linked trust record changed: %v %v", fi, err)
	}
	if _, err := os.Lstat(filepath.Join(s.proj, ".atreides")); err == nil {
		t.Error("the rest of the purge was not done: .atreides is still there")
	}
}
