package audit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/filelock"
)

// Segments is how many files the trail keeps: the current one and the
// rotated ones. Each holds about 1/Segments of the configured size, so the
// trail keeps between (Segments-1)/Segments of it and all of it.
const Segments = 5

// checkEvery is the stride of the rotation check: only the write that
// crosses a multiple of it asks for the size limit.
const checkEvery = 64 << 10

// The trail's file names in the state directory: <name>.jsonl, and
// <name>-<UTC time>-<pid>.jsonl for a rotated segment.
const (
	auditName     = "audit"
	rotatedSuffix = ".jsonl"
	rotatedLayout = "20060102T150405.000000000Z"
)

// Trail is the audit trail of one project, or another bounded log of
// JSON lines kept the same way (the span spool, package spans).
type Trail struct {
	base, dir string // the project root, trusted, and the state directory's name in it
	// currentName is the current file's name, rotatedPrefix what the
	// rotated segments' names start with.
	currentName, rotatedPrefix string
	// MaxBytes returns the trail's size limit (all segments together; 0
	// or less: no rotation). It is called at most once per checkEvery
	// bytes written, so it may load the configuration.
	MaxBytes func() int64

	// keep is set by [Trail.Keep]; mu guards kept, the current file held
	// open between appends, and keptInfo, its stat when it was opened.
	keep     bool
	mu       sync.Mutex
	kept     *os.File
	keptInfo fs.FileInfo
}

// Keep makes t keep its current file open between appends, and returns
// t. A server appends to the same file on every event, and opening it
// through the confined walk each time costs more than the write. Before
// each append one lstat checks that the name still leads to the kept
// file: one rotated by another process, removed or replaced is let go and
// the name opened afresh, as without Keep, so a line never goes to a file
// the trail's name no longer leads to. The file is closed after a
// rotation, or by the runtime once t is unreachable (a server forgets a
// project's settings while a request may still be appending through
// them, so they are never closed under it).
func (t *Trail) Keep() *Trail {
	t.keep = true
	return t
}

// New returns the trail kept in a project's state directory.
func New(stateDir string, maxBytes func() int64) *Trail {
	return NewNamed(stateDir, auditName, maxBytes)
}

// NewNamed returns a log kept like the audit trail in a project's state
// directory, in name.jsonl and its rotated segments.
func NewNamed(stateDir, name string, maxBytes func() int64) *Trail {
	base, dir := confined.Split(stateDir, 1)
	return &Trail{base: base, dir: dir, currentName: name + rotatedSuffix, rotatedPrefix: name + "-", MaxBytes: maxBytes}
}

// Path is the current file's path.
func (t *Trail) Path() string { return filepath.Join(t.base, t.dir, t.currentName) }

// Append writes one record with one write, then rotates the trail if this
// write crossed a check boundary of a full segment.
func (t *Trail) Append(r *Record) error { return t.AppendLine(r.line()) }

// AppendLine is Append for a line made elsewhere: one JSON object ending
// in a newline, written with one write.
func (t *Trail) AppendLine(line []byte) error {
	if t.keep {
		return t.appendKept(line)
	}
	f, err := t.openAppend()
	if err != nil {
		return fmt.Errorf("open %s: %w", t.currentName, err)
	}
	defer f.Close()
	_, err = t.appendTo(f, line)
	return err
}

// appendKept is AppendLine through the kept file.
func (t *Trail) appendKept(line []byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.kept != nil && !t.stillCurrent() {
		t.letGo()
	}
	if t.kept == nil {
		f, err := t.openAppend()
		if err != nil {
			return fmt.Errorf("open %s: %w", t.currentName, err)
		}
		fi, err := f.Stat()
		if err != nil {
			_ = f.Close()
			return fmt.Errorf("stat %s: %w", f.Name(), err)
		}
		t.kept, t.keptInfo = f, fi
	}
	rotated, err := t.appendTo(t.kept, line)
	if rotated || err != nil {
		// A rotated file is no longer the current one (and holds the
		// rotation's lock); after a failure the next append opens afresh.
		t.letGo()
	}
	return err
}

// stillCurrent reports whether the trail's name leads to the kept file;
// t.mu held. A name that leads to it through a link leads to the file
// opened safely before, so writing to it writes nowhere new.
func (t *Trail) stillCurrent() bool {
	fi, err := os.Lstat(t.Path())
	return err == nil && os.SameFile(fi, t.keptInfo)
}

// letGo closes the kept file; t.mu held.
func (t *Trail) letGo() {
	_ = t.kept.Close()
	t.kept, t.keptInfo = nil, nil
}

// appendTo writes line to f, the current file opened for appending, then
// rotates the trail if this write crossed a check boundary of a full
// segment, reporting whether it did.
func (t *Trail) appendTo(f *os.File, line []byte) (rotated bool, err error) {
	if _, err := f.Write(line); err != nil {
		return false, fmt.Errorf("write %s: %w", f.Name(), err)
	}
	// With O_APPEND the offset after the write is the end of this record,
	// whatever other processes appended meanwhile.
	end, err := f.Seek(0, io.SeekCurrent)
	if err != nil || (end-int64(len(line)))/checkEvery == end/checkEvery {
		return false, nil
	}
	if t.MaxBytes == nil {
		return false, nil
	}
	if limit := t.MaxBytes(); limit <= 0 || end < limit/Segments {
		return false, nil
	}
	if err := t.rotate(f); err != nil {
		return true, fmt.Errorf("rotate %s: %w", t.currentName, err)
	}
	return true, nil
}

// trailPerm is a new trail file's mode: the user's alone, as the trail
// holds the commands the agent ran and the first words of each prompt.
const trailPerm = 0o600

func (t *Trail) openAppend() (*os.File, error) {
	const flag = os.O_WRONLY | os.O_APPEND | os.O_CREATE
	if f, err := t.openCurrent(flag, trailPerm); f != nil || err != nil {
		return f, err
	}
	// The state directory is made by the store before any decision; this
	// is for a trail written when the store could not be.
	d, err := confined.MkdirAll(t.base, t.dir, 0o755)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.OpenFile(t.currentName, flag, trailPerm)
}

// openCurrent opens the current file with the flags of [os.OpenFile]; nil,
// and no error, when it or the state directory is missing.
func (t *Trail) openCurrent(flag int, perm fs.FileMode) (*os.File, error) {
	f, err := confined.OpenFile(t.base, filepath.Join(t.dir, t.currentName), flag, perm)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return f, err
}

// isCurrent reports whether the current name leads to the file f has open.
func (t *Trail) isCurrent(f *os.File) bool {
	g, err := t.openCurrent(os.O_RDONLY, 0)
	if g == nil || err != nil {
		return false
	}
	defer g.Close()
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	gi, err := g.Stat()
	return err == nil && os.SameFile(fi, gi)
}

// rotate sets the current file aside under a new name, if it still is the
// file f, and removes the segments beyond the limit. The lock on f makes
// the rotations of one file one at a time: a second rotator either waits
// for nothing (the lock is taken: it skips) or finds the name leading to a
// new file. Without it, two rotators could each rename a different file
// under names whose order is not the order of their records.
func (t *Trail) rotate(f *os.File) error {
	if ok, err := filelock.TryLock(f, true); err != nil || !ok {
		return err // another process is rotating it
	}
	if !t.isCurrent(f) {
		return nil // another process rotated it
	}
	d, err := confined.OpenDir(t.base, t.dir)
	if err != nil {
		return err
	}
	defer d.Close()
	name := t.rotatedPrefix + time.Now().UTC().Format(rotatedLayout) + fmt.Sprintf("-%d", os.Getpid()) + rotatedSuffix
	if err := d.Rename(t.currentName, name); err != nil {
		return err
	}
	names, err := t.rotated(d)
	if err != nil {
		return err
	}
	for _, n := range names[:max(0, len(names)-(Segments-1))] {
		// Another rotation may have removed it already.
		if err := d.Remove(n); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// rotated lists the rotated segments, oldest first (their names sort by
// the time they were set aside).
func (t *Trail) rotated(d *confined.Dir) ([]string, error) {
	entries, err := d.Entries()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, t.rotatedPrefix) && strings.HasSuffix(n, rotatedSuffix) && e.Type().IsRegular() {
			names = append(names, n)
		}
	}
	return names, nil
}

// Files lists the files of the trail, oldest first: the rotated segments,
// then the current file when there is one. A reader that keeps its own
// place (the span exporter's cursor) opens them with [Trail.OpenFile]; one
// may be gone by then, removed by a rotation.
func (t *Trail) Files() ([]string, error) {
	d, err := confined.OpenDir(t.base, t.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := t.rotated(d)
	if err != nil {
		return nil, err
	}
	if f, err := d.OpenFile(t.currentName, os.O_RDONLY, 0); err == nil {
		_ = f.Close()
		names = append(names, t.currentName)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return names, nil
}

// OpenFile opens one of the trail's files, named as [Trail.Files] names
// it, for reading.
func (t *Trail) OpenFile(name string) (*os.File, error) {
	return confined.OpenFile(t.base, filepath.Join(t.dir, name), os.O_RDONLY, 0)
}
