//go:build linux

package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: its master side, for the test, and
// its slave side, the terminal the command reads and writes.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock the pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("pty number: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pty's terminal: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// screen is what the command wrote to the terminal, read from the master
// side by one goroutine, every read bounded by a deadline.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) read(m *os.File, done <-chan struct{}) {
	b := make([]byte, 4096)
	for {
		select {
		case <-done:
			return
		default:
		}
		if err := m.SetReadDeadline(time.Now().Add(200 * time.Millisecond)); err != nil {
			return
		}
		n, err := m.Read(b)
		s.mu.Lock()
		s.buf.Write(b[:n])
		s.mu.Unlock()
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			return
		}
	}
}

func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.ReplaceAll(s.buf.String(), "\r\n", "\n")
}

// expect waits, at most 20 s, until the terminal shows want after offset
// from; it returns where want ends.
func (s *screen) expect(t *testing.T, from int, want string) int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if text := s.text(); len(text) >= from {
			if i := strings.Index(text[from:], want); i >= 0 {
				return from + i + len(want)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the terminal never showed %q; it shows:\n%s", want, s.text())
	return 0
}

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

			master, slave := openPTY(t)
			sc := &screen{}
			done := make(chan struct{})
			defer close(done)
			go sc.read(master, done)
			var stderr bytes.Buffer
			exit := make(chan int, 1)
			go func() { exit <- Main([]string{"atreides", "init"}, slave, slave, &stderr) }()

			answer := func(s string) {
				if _, err := master.Write([]byte(s + "\n")); err != nil {
					t.Fatal(err)
				}
			}
			at := sc.expect(t, 0, "Preset [standard]: ")
			answer("7")
			at = sc.expect(t, at, "is none of them")
			at = sc.expect(t, at, "Preset [standard]: ")
			answer("1")
			at = sc.expect(t, at, "gemini")
			at = sc.expect(t, at, "[all]: ")
			answer("claude")
			at = sc.expect(t, at, "preset guard for claude (project)")
			at = sc.expect(t, at, "+preset: guard")
			sc.expect(t, at, "Apply? [y/N] ")
			answer(tc.apply)
			select {
			case code := <-exit:
				if code != tc.code {
					t.Fatalf("init exited %d, want %d; stderr: %s\nterminal:\n%s", code, tc.code, stderr.String(), sc.text())
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("init did not end; terminal:\n%s", sc.text())
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
