package audit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// The trail's file names in the state directory.
const (
	currentName   = "audit.jsonl"
	rotatedPrefix = "audit-"
	rotatedSuffix = ".jsonl"
	rotatedLayout = "20060102T150405.000000000Z"
)

// Trail is the audit trail of one project.
type Trail struct {
	base, dir string // the project root, trusted, and the state directory's name in it
	// MaxBytes returns the trail's size limit (all segments together; 0
	// or less: no rotation). It is called at most once per checkEvery
	// bytes written, so it may load the configuration.
	MaxBytes func() int64
}

// New returns the trail kept in a project's state directory.
func New(stateDir string, maxBytes func() int64) *Trail {
	base, dir := confined.Split(stateDir, 1)
	return &Trail{base: base, dir: dir, MaxBytes: maxBytes}
}

// Path is the current file's path.
func (t *Trail) Path() string { return filepath.Join(t.base, t.dir, currentName) }

// Append writes one record with one write, then rotates the trail if this
// write crossed a check boundary of a full segment.
func (t *Trail) Append(r *Record) error {
	line := r.line()
	f, err := t.openAppend()
	if err != nil {
		return fmt.Errorf("open audit trail: %w", err)
	}
	defer f.Close()
	if _, err := f.Write(line); err != nil {
		return fmt.Errorf("write audit trail %s: %w", f.Name(), err)
	}
	// With O_APPEND the offset after the write is the end of this record,
	// whatever other processes appended meanwhile.
	end, err := f.Seek(0, io.SeekCurrent)
	if err != nil || (end-int64(len(line)))/checkEvery == end/checkEvery {
		return nil
	}
	if t.MaxBytes == nil {
		return nil
	}
	if limit := t.MaxBytes(); limit <= 0 || end < limit/Segments {
		return nil
	}
	if err := t.rotate(f); err != nil {
		return fmt.Errorf("rotate audit trail: %w", err)
	}
	return nil
}

func (t *Trail) openAppend() (*os.File, error) {
	const flag = os.O_WRONLY | os.O_APPEND | os.O_CREATE
	if f, err := t.openCurrent(flag, 0o644); f != nil || err != nil {
		return f, err
	}
	// The state directory is made by the store before any decision; this
	// is for a trail written when the store could not be.
	d, err := confined.MkdirAll(t.base, t.dir, 0o755)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.OpenFile(currentName, flag, 0o644)
}

// openCurrent opens the current file with the flags of [os.OpenFile]; nil,
// and no error, when it or the state directory is missing.
func (t *Trail) openCurrent(flag int, perm fs.FileMode) (*os.File, error) {
	f, err := confined.OpenFile(t.base, filepath.Join(t.dir, currentName), flag, perm)
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
	name := rotatedPrefix + time.Now().UTC().Format(rotatedLayout) + fmt.Sprintf("-%d", os.Getpid()) + rotatedSuffix
	if err := d.Rename(currentName, name); err != nil {
		return err
	}
	names, err := rotated(d)
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
func rotated(d *confined.Dir) ([]string, error) {
	entries, err := d.Entries()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, rotatedPrefix) && strings.HasSuffix(n, rotatedSuffix) && e.Type().IsRegular() {
			names = append(names, n)
		}
	}
	return names, nil
}
