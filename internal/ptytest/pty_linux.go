package ptytest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Open opens a pseudo-terminal: its master side, for the test, and its
// terminal side, the one the command reads and writes. Both close at the
// end of the test.
func Open(t *testing.T) (master, term *os.File) {
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

// Resize sets the terminal's size, as a terminal window does.
func Resize(t *testing.T, term *os.File, cols, rows int) {
	t.Helper()
	ws := &unix.Winsize{Row: uint16(rows), Col: uint16(cols)}
	if err := unix.IoctlSetWinsize(int(term.Fd()), unix.TIOCSWINSZ, ws); err != nil {
		t.Fatalf("set the terminal's size: %v", err)
	}
}

// Screen is what the command wrote to the terminal, read from the master
// side by one goroutine ([Screen.Read]), every read bounded by a
// deadline.
type Screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Read reads m into the screen until done is closed or m fails.
func (s *Screen) Read(m *os.File, done <-chan struct{}) {
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

// Text is everything written so far, CRLF as LF.
func (s *Screen) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.ReplaceAll(s.buf.String(), "\r\n", "\n")
}

// Len is how much has been written so far: an offset for [Screen.Expect].
func (s *Screen) Len() int { return len(s.Text()) }

// Expect waits, at most within, until the terminal shows want after
// offset from; it returns where want ends. It fails t when want never
// shows.
func (s *Screen) Expect(t *testing.T, from int, want string, within time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if text := s.Text(); len(text) >= from {
			if i := strings.Index(text[from:], want); i >= 0 {
				return from + i + len(want)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the terminal never showed %q; it shows:\n%q", want, s.Text())
	return 0
}
