package confined

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ErrRefused matches every [*RefusedError] with [errors.Is].
var ErrRefused = errors.New("not a regular file or directory that atreides owns")

// RefusedError says that a name below the base is not what atreides keeps
// there: a link, a FIFO, a device, a socket, a directory where a file
// belongs or a file where a directory belongs. Nothing was read or written
// through it.
type RefusedError struct {
	Path string // base joined with the names walked, as the user knows it
	What string // what is there instead, e.g. "a symbolic link"
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("refusing %s: it is %s; atreides only uses regular files and directories of its own there, never through a link", e.Path, e.What)
}

// Is makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// Split cuts path before its last n elements: the directory the caller
// trusts, and the part below it that is never followed. Split(
// "/p/.atreides/log", 2) is ("/p", ".atreides/log"): a project's root is the
// user's choice, the .atreides directory and its files come from the
// repository.
func Split(path string, n int) (base, rel string) {
	base = filepath.Clean(path)
	elems := make([]string, n)
	for i := n - 1; i >= 0; i-- {
		elems[i] = filepath.Base(base)
		base = filepath.Dir(base)
	}
	return base, filepath.Join(elems...)
}

// OpenDir opens the directory rel below base; see the package comment for
// what is refused. rel "" or "." is base itself.
func OpenDir(base, rel string) (*Dir, error) { return walk(base, rel, false, 0) }

// MkdirAll is [OpenDir] that first creates the missing directories of rel
// with perm (before the umask). A link or file where a directory belongs is
// refused, never replaced.
func MkdirAll(base, rel string, perm fs.FileMode) (*Dir, error) { return walk(base, rel, true, perm) }

// OpenFile opens the file rel below base with the flags of [os.OpenFile].
// It never creates directories; see [MkdirAll].
func OpenFile(base, rel string, flag int, perm fs.FileMode) (*os.File, error) {
	d, err := OpenDir(base, filepath.Dir(rel))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.OpenFile(filepath.Base(rel), flag, perm)
}

// ReadFile reads the file rel below base, at most max bytes; a longer file
// is an error, not a silent cut.
func ReadFile(base, rel string, max int64) ([]byte, error) {
	d, err := OpenDir(base, filepath.Dir(rel))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadFile(filepath.Base(rel), max)
}

// Path is the path of name in d, for messages.
func (d *Dir) Path(name string) string { return filepath.Join(d.path, name) }

// sortEntries sorts a listing by name, as [os.ReadDir] does, for the
// callers of [Dir.Entries] that go by the order of names.
func sortEntries(es []fs.DirEntry, err error) ([]fs.DirEntry, error) {
	slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return es, err
}

// ReaderAt is a file open for reading at offsets ([Dir.OpenRead]).
type ReaderAt interface {
	io.ReaderAt
	io.Closer
}

// ReadFile reads the file name in d, at most max bytes.
func (d *Dir) ReadFile(name string, max int64) ([]byte, error) {
	f, size, err := d.open(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Sized from the file, so that one read fills it instead of a dozen
	// doublings of a buffer (each a fresh allocation of a one-shot process).
	var buf bytes.Buffer
	if size < max {
		buf.Grow(int(size) + bytes.MinRead)
	}
	_, err = buf.ReadFrom(io.LimitReader(f, max+1))
	data := buf.Bytes()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.Path(name), err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", d.Path(name), max)
	}
	return data, nil
}

// CreateTemp creates a new file in d, named by pattern with its last "*"
// replaced by a random string, open for reading and writing, mode 0600. The
// caller removes it (usually by renaming it into place).
func (d *Dir) CreateTemp(pattern string) (*os.File, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndex(pattern, "*"); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for range 100 {
		name := prefix + strconv.FormatUint(rand.Uint64(), 36) + suffix
		f, err := d.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("create a temporary file in %s: every name tried exists", d.path)
}

// ReplaceFile puts data in d under name in one step: a temporary file in
// d (mode 0600), synced first when durable, then renamed over name, so a
// reader sees the old file or the new one whole, never part of one. The
// temporary file is removed when anything fails.
func (d *Dir) ReplaceFile(name string, data []byte, durable bool) error {
	f, err := d.CreateTemp("." + name + ".tmp-*")
	if err != nil {
		return err
	}
	tmp := filepath.Base(f.Name())
	_, err = f.Write(data)
	if err == nil && durable {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = d.Rename(tmp, name)
	}
	if err != nil {
		_ = d.Remove(tmp)
	}
	return err
}

// elements splits a relative path into the names to walk.
func elements(rel string) ([]string, error) {
	if rel == "" || rel == "." {
		return nil, nil
	}
	if !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("confined: %q is not a path below the base", rel)
	}
	return strings.Split(filepath.ToSlash(filepath.Clean(rel)), "/"), nil
}

// checkName accepts one plain name of an entry in a directory.
func checkName(name string) error {
	if !filepath.IsLocal(name) || filepath.Base(name) != name {
		return fmt.Errorf("confined: %q is not a name in one directory", name)
	}
	return nil
}

func checkNames(a, b string) error {
	if err := checkName(a); err != nil {
		return err
	}
	return checkName(b)
}

// describe says what an entry of mode m is when that is not what was
// wanted (a directory, or else a regular file), and "" when it is.
func describe(m fs.FileMode, wantDir bool) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		if wantDir {
			return ""
		}
		return "a directory"
	case m.IsRegular():
		if wantDir {
			return "a file, not a directory"
		}
		return ""
	}
	return "not a regular file"
}
