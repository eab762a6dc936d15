package project

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/sanitize"
)

// maxLogSize is where the log is rotated to log.1, so a busy project keeps
// at most about twice this on disk.
const maxLogSize = 1 << 20

// logName is the log's file name in the state directory.
const logName = "log"

// Log appends lines to .atreides/log. It opens the file on the first line
// written, so a quiet hook never touches it, and it never writes to the
// host's stdout or stderr: a hook's output belongs to the host protocol.
// It is safe for concurrent use; concurrent processes each append whole
// lines with one write.
//
// The state directory and the log come from the repository, so they are
// opened without following links (package confined): a log committed as a
// link to ~/.bashrc must not receive the command text a log line quotes. A
// refused log cannot log its own refusal, and there is nowhere else to say
// it during a hook (a second log elsewhere would be one nobody reads), so
// the line is dropped, Err keeps the refusal, and `atreides doctor`
// reports it through [Log.Stat].
type Log struct {
	base, dir string // the project root, trusted, and the state directory's name in it
	pid       int
	mu        sync.Mutex
	// Err keeps the last failure to write, for doctor and tests; logging
	// itself must never fail a hook.
	Err error
}

// NewLog returns the log of a project's state directory. Outside any
// project (stateDir "") it keeps nothing: there is no place of the
// project's to write, and none of the user's that anyone would read.
func NewLog(stateDir string) *Log {
	if stateDir == "" {
		return &Log{}
	}
	base, dir := confined.Split(stateDir, 1)
	return &Log{base: base, dir: dir, pid: os.Getpid()}
}

// Path is the log file's path.
func (l *Log) Path() string { return filepath.Join(l.base, l.dir, logName) }

// Stat describes the log file as a hook would open it: a link or anything
// else that is not a regular file is a *confined.RefusedError.
func (l *Log) Stat() (fs.FileInfo, error) {
	f, err := confined.OpenFile(l.base, filepath.Join(l.dir, logName), os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// Logf writes one sanitized line.
func (l *Log) Logf(format string, args ...any) {
	msg := sanitize.String(fmt.Sprintf(format, args...), 4000)
	line := fmt.Sprintf("%s pid=%d %s\n", time.Now().UTC().Format(time.RFC3339Nano), l.pid, strings.ReplaceAll(msg, "\n", " | "))
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Err = l.write(line)
}

func (l *Log) write(line string) error {
	if l.dir == "" {
		return nil
	}
	d, err := confined.MkdirAll(l.base, l.dir, 0o755)
	if err != nil {
		return fmt.Errorf("log dir: %w", err)
	}
	defer d.Close()
	f, err := openLog(d)
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

// openLog opens the log for appending, rotating it first when it is full.
func openLog(d *confined.Dir) (*os.File, error) {
	const flag = os.O_WRONLY | os.O_APPEND | os.O_CREATE
	f, err := d.OpenFile(logName, flag, 0o644)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || fi.Size() <= maxLogSize {
		return f, nil
	}
	_ = f.Close()
	// Two processes may both rotate; the loser's rename moves a fresh file,
	// which only loses a few lines of log. A rename never follows a link,
	// so a link planted as log.1 is replaced, not written through.
	_ = d.Rename(logName, logName+".1")
	return d.OpenFile(logName, flag, 0o644)
}
