//go:build !unix

package confined

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Dir is a directory reached from a base without following links. Without
// openat its methods work on paths: each component was checked with Lstat
// when the Dir was opened, and each file is checked again when opened, which
// keeps out a link committed to a repository but not a local process that
// swaps a directory between the check and the use.
type Dir struct {
	path string
}

func walk(base, rel string, create bool, perm fs.FileMode) (*Dir, error) {
	elems, err := elements(rel)
	if err != nil {
		return nil, err
	}
	if base == "" {
		base = "."
	}
	fi, err := os.Stat(base)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &RefusedError{Path: base, What: describe(fi.Mode(), true)}
	}
	path := base
	for _, name := range elems {
		path = filepath.Join(path, name)
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) && create {
			if err = os.Mkdir(path, perm); err == nil || errors.Is(err, fs.ErrExist) {
				fi, err = os.Lstat(path)
			}
		}
		if err != nil {
			return nil, err
		}
		if what := describe(fi.Mode(), true); what != "" {
			return nil, &RefusedError{Path: path, What: what}
		}
	}
	return &Dir{path: path}, nil
}

// SameFile reports whether name in d is, without following a link, the
// file fi describes (a stat of a file or directory this process holds
// open), and, for a regular file, of the same size. Any error is false.
func (d *Dir) SameFile(name string, fi fs.FileInfo) bool {
	if checkName(name) != nil {
		return false
	}
	now, err := os.Lstat(d.Path(name))
	if err != nil || !os.SameFile(now, fi) {
		return false
	}
	if fi.IsDir() {
		return now.IsDir()
	}
	return now.Mode().IsRegular() && now.Size() == fi.Size()
}

// Stat describes the directory d stands for. Without a descriptor it is
// what its path leads to now.
func (d *Dir) Stat() (fs.FileInfo, error) { return os.Lstat(d.path) }

// OpenRead opens the regular file name in d for reading at offsets, and
// returns its size.
func (d *Dir) OpenRead(name string) (ReaderAt, int64, error) {
	f, size, err := d.open(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, 0, err
	}
	return f, size, nil
}

// Sub opens the directory name (one plain name) in d, never through a
// link, creating it with perm when create is set and it is missing.
func (d *Dir) Sub(name string, create bool, perm fs.FileMode) (*Dir, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	return walk(d.path, name, create, perm)
}

// OpenFile opens the file name in d with the flags of [os.OpenFile] and
// returns it only if it is a regular file and the very file Lstat saw under
// that name; anything else is a [*RefusedError].
func (d *Dir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, _, err := d.open(name, flag, perm)
	return f, err
}

// open is [Dir.OpenFile] that also returns the file's size.
func (d *Dir) open(name string, flag int, perm fs.FileMode) (*os.File, int64, error) {
	if err := checkName(name); err != nil {
		return nil, 0, err
	}
	path := d.Path(name)
	before, err := os.Lstat(path)
	switch {
	case err == nil:
		if what := describe(before.Mode(), false); what != "" {
			return nil, 0, &RefusedError{Path: path, What: what}
		}
	case errors.Is(err, fs.ErrNotExist):
		before = nil
	default:
		return nil, 0, err
	}
	f, err := os.OpenFile(path, flag, perm)
	if err != nil {
		return nil, 0, err
	}
	after, err := f.Stat()
	if err == nil && before == nil {
		before, err = os.Lstat(path) // created just now: what does the name hold?
	}
	if err != nil {
		_ = f.Close()
		return nil, 0, err
	}
	what := describe(after.Mode(), false)
	if what == "" && !os.SameFile(before, after) {
		what = "a different file from the one checked before opening"
	}
	if what != "" {
		_ = f.Close()
		return nil, 0, &RefusedError{Path: path, What: what}
	}
	return f, after.Size(), nil
}

// Rename renames old to new inside d.
func (d *Dir) Rename(old, new string) error {
	if err := checkNames(old, new); err != nil {
		return err
	}
	return os.Rename(d.Path(old), d.Path(new))
}

// Link makes new a second name of the file old inside d.
func (d *Dir) Link(old, new string) error {
	if err := checkNames(old, new); err != nil {
		return err
	}
	return os.Link(d.Path(old), d.Path(new))
}

// Remove removes the name from d.
func (d *Dir) Remove(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	return os.Remove(d.Path(name))
}

// Names lists the names in d.
func (d *Dir) Names() ([]string, error) {
	f, err := os.Open(d.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// Entries lists the entries in d, sorted by name as [os.ReadDir] sorts
// them.
func (d *Dir) Entries() ([]fs.DirEntry, error) {
	f, err := os.Open(d.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return sortEntries(f.ReadDir(-1))
}

// Sync does nothing: Windows cannot sync a directory, and NTFS journals
// its renames.
func (d *Dir) Sync() error { return nil }

// Close does nothing; the Dir holds no handle.
func (d *Dir) Close() error { return nil }
