//go:build linux

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/ptytest"
)

// TestInitPrompt answers init's questions at a real terminal: a preset
// by a number after an answer that means nothing, one of the two hosts
// seen, then yes (applied) or no (nothing changed, exit 1).
func TestInitPrompt(t *testing.T) {
	for _, tc := range []struct {
		name, apply string
		code        int
	}{{"yes", "y", 0}, {"no", "", 1}} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			proj, home, bin := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "bin")
			for _, d := range []string{proj, filepath.Join(home, ".claude"), filepath.Join(home, ".gemini"), bin} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			// Only the hosts whose folders are in HOME are seen.
			t.Setenv("PATH", bin)
			t.Setenv("HOME", home)
			t.Setenv("NO_COLOR", "1")
			t.Setenv("XDG_CONFIG_HOME", "")
			t.Setenv("XDG_STATE_HOME", "")
			t.Setenv("CLAUDE_PROJECT_DIR", "")
			t.Chdir(proj)

			master, slave := ptytest.Open(t)
			sc := &ptytest.Screen{}
			done := make(chan struct{})
			defer close(done)
			go sc.Read(master, done)
			var stderr bytes.Buffer
			exit := make(chan int, 1)
			go func() { exit <- Main([]string{"atreides", "init"}, slave, slave, &stderr) }()

			answer := func(s string) {
				if _, err := master.Write([]byte(s + "\n")); err != nil {
					t.Fatal(err)
				}
			}
			at := sc.Expect(t, 0, "Preset [standard]: ", 20*time.Second)
			answer("7")
			at = sc.Expect(t, at, "is none of them", 20*time.Second)
			at = sc.Expect(t, at, "Preset [standard]: ", 20*time.Second)
			answer("1")
			at = sc.Expect(t, at, "gemini", 20*time.Second)
			at = sc.Expect(t, at, "[all]: ", 20*time.Second)
			answer("claude")
			at = sc.Expect(t, at, "preset guard for claude (project)", 20*time.Second)
			at = sc.Expect(t, at, "+preset: guard", 20*time.Second)
			sc.Expect(t, at, "Apply? [y/N] ", 20*time.Second)
			answer(tc.apply)
			select {
			case code := <-exit:
				if code != tc.code {
					t.Fatalf("init exited %d, want %d; stderr: %s\nterminal:\n%s", code, tc.code, stderr.String(), sc.Text())
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("init did not end; terminal:\n%s", sc.Text())
			}
			cfg, err := os.ReadFile(filepath.Join(proj, ".atreides", "config.yaml"))
			_, gem := os.Stat(filepath.Join(home, ".gemini", "settings.json"))
			switch {
			case tc.code == 0 && !strings.Contains(string(cfg), "preset: guard"):
				t.Errorf("applied, but the configuration says %q (%v)", cfg, err)
			case tc.code == 0 && gem == nil:
				t.Error("gemini was not chosen, but its settings were written")
			case tc.code != 0 && err == nil:
				t.Errorf("not applied, but the configuration was written: %q", cfg)
			}
			if _, err := os.Stat(filepath.Join(proj, ".claude", "settings.json")); (err == nil) != (tc.code == 0) {
				t.Errorf("the hooks file's presence (%v) does not match the answer %q", err, tc.apply)
			}
		})
	}
}
