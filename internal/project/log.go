package project

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/sanitize"
)

// maxLogSize is where the log is rotated to log.1, so a busy project keeps
// at most about twice this on disk.
const maxLogSize = 1 << 20

// Log appends lines to .atreides/log. It opens the file on the first line
// written, so a quiet hook never touches it, and it never writes to the
// host's stdout or stderr: a hook's output belongs to the host protocol.
// It is safe for concurrent use; concurrent processes each append whole
// lines with one write.
type Log struct {
	path string
	pid  int
	mu   sync.Mutex
	// Err keeps the last failure to write, for doctor and tests; logging
	// itself must never fail a hook.
	Err error
}

// NewLog returns the log of a project's state directory.
func NewLog(stateDir string) *Log {
	return &Log{path: filepath.Join(stateDir, "log"), pid: os.Getpid()}
}

// Path is the log file's path.
func (l *Log) Path() string { return l.path }

// Logf writes one sanitized line.
func (l *Log) Logf(format string, args ...any) {
	msg := sanitize.String(fmt.Sprintf(format, args...), 4000)
	line := fmt.Sprintf("%s pid=%d %s\n", time.Now().UTC().Format(time.RFC3339Nano), l.pid, strings.ReplaceAll(msg, "\n", " | "))
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Err = l.write(line)
}

func (l *Log) write(line string) error {
	if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
		return fmt.Errorf("log dir: %w", err)
	}
	if fi, err := os.Stat(l.path); err == nil && fi.Size() > maxLogSize {
		// Two processes may both rotate; the loser's rename fails or moves
		// a fresh file, which only loses a few lines of log.
		_ = os.Rename(l.path, l.path+".1")
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("open log: %w", err)
	}
	_, werr := f.WriteString(line)
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("write log: %w", werr)
	}
	return cerr
}
