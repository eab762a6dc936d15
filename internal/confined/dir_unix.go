//go:build unix

package confined

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Dir is an open directory reached from a base without following links.
// Its methods take one plain name and act through the directory's
// descriptor (openat, renameat, ...), so replacing a directory on the path
// afterwards does not redirect them. Close it when done.
type Dir struct {
	fd   int
	path string
}

func walk(base, rel string, create bool, perm fs.FileMode) (*Dir, error) {
	elems, err := elements(rel)
	if err != nil {
		return nil, err
	}
	// The base is trusted: follow it wherever the user pointed it. Its
	// first element below is opened in the same call (O_NOFOLLOW applies to
	// the last component only), which saves a descriptor per walk; from
	// there on each name is opened from its parent's descriptor. That first
	// path is joined by hand: filepath.Join would fold ".." across a link.
	if base == "" {
		base = "."
	}
	dirfd, fd := unix.AT_FDCWD, -1 // fd: the directory reached, -1 while that is the base
	path := base
	for i, name := range elems {
		path = filepath.Join(path, name)
		at := name
		if i == 0 {
			at = strings.TrimSuffix(base, "/") + "/" + name
		}
		next, err := openDirAt(dirfd, at)
		if err == unix.ENOENT && create {
			if err = unix.Mkdirat(dirfd, at, uint32(perm.Perm())); err == nil || err == unix.EEXIST {
				next, err = openDirAt(dirfd, at)
			}
		}
		if err != nil {
			err = refusal(dirfd, at, path, true, err)
			closeFd(fd)
			return nil, err
		}
		closeFd(fd)
		dirfd, fd = next, next
	}
	if fd < 0 {
		var err error
		if fd, err = openat(unix.AT_FDCWD, base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
			return nil, &fs.PathError{Op: "open", Path: base, Err: err}
		}
	}
	return &Dir{fd: fd, path: path}, nil
}

// Sub opens the directory name (one plain name) in d, never through a
// link, creating it with perm when create is set and it is missing: what
// [OpenDir] and [MkdirAll] do for one more name, from a directory already
// open, without walking the path above it again.
func (d *Dir) Sub(name string, create bool, perm fs.FileMode) (*Dir, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	path := filepath.Join(d.path, name)
	fd, err := openDirAt(d.fd, name)
	if err == unix.ENOENT && create {
		if err = unix.Mkdirat(d.fd, name, uint32(perm.Perm())); err == nil || err == unix.EEXIST {
			fd, err = openDirAt(d.fd, name)
		}
	}
	if err != nil {
		return nil, refusal(d.fd, name, path, true, err)
	}
	return &Dir{fd: fd, path: path}, nil
}

func closeFd(fd int) {
	if fd >= 0 {
		_ = unix.Close(fd)
	}
}

func openDirAt(dirfd int, name string) (int, error) {
	return openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
}

// OpenFile opens the file name in d with the flags of [os.OpenFile]. It
// never follows a link, never blocks on a FIFO or device, and returns only
// a regular file; anything else is a [*RefusedError].
func (d *Dir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, _, err := d.open(name, flag, perm)
	return f, err
}

// open is [Dir.OpenFile] that also returns the file's size, from the
// check it makes anyway.
func (d *Dir) open(name string, flag int, perm fs.FileMode) (*os.File, int64, error) {
	fd, size, err := d.openFd(name, flag, perm)
	if err != nil {
		return nil, 0, err
	}
	if flag&unix.O_NONBLOCK == 0 {
		// Harmless on a regular file, but os.NewFile would see the flag and
		// try the poller. F_SETFL ignores the access mode and creation
		// flags in flag (POSIX), so this only drops O_NONBLOCK.
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFL, flag&^unix.O_NONBLOCK); err != nil {
			_ = unix.Close(fd)
			return nil, 0, &fs.PathError{Op: "fcntl", Path: d.Path(name), Err: err}
		}
	}
	return os.NewFile(uintptr(fd), d.Path(name)), size, nil
}

// openFd opens the regular file name in d (never a link, never blocking
// on a FIFO or device: O_NONBLOCK stays set) and returns its descriptor
// and size.
func (d *Dir) openFd(name string, flag int, perm fs.FileMode) (int, int64, error) {
	if err := checkName(name); err != nil {
		return -1, 0, err
	}
	path := d.Path(name)
	fd, err := openat(d.fd, name, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return -1, 0, refusal(d.fd, name, path, false, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		_ = unix.Close(fd)
		return -1, 0, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	if what := describe(modeOf(uint32(st.Mode)), false); what != "" {
		_ = unix.Close(fd)
		return -1, 0, &RefusedError{Path: path, What: what}
	}
	return fd, st.Size, nil
}

// SameFile reports whether name in d is, without following a link, the
// file fi describes (a stat of a file or directory this process holds
// open), and, for a regular file, of the same size: for a process that
// keeps a file open between uses and must know the name still leads to
// it. Any error is false.
func (d *Dir) SameFile(name string, fi fs.FileInfo) bool {
	held, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || checkName(name) != nil {
		return false
	}
	var st unix.Stat_t
	if unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return false
	}
	same := uint64(st.Dev) == uint64(held.Dev) && uint64(st.Ino) == uint64(held.Ino)
	if fi.IsDir() {
		return same && modeOf(uint32(st.Mode)).IsDir()
	}
	return same && modeOf(uint32(st.Mode)).IsRegular() && st.Size == fi.Size()
}

// Stat describes the directory d holds open (not what its path leads to
// now), for [Dir.SameFile] and [os.SameFile].
func (d *Dir) Stat() (fs.FileInfo, error) {
	fd, err := unix.Dup(d.fd)
	if err != nil {
		return nil, &fs.PathError{Op: "dup", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	return f.Stat()
}

// OpenRead opens the regular file name in d for reading at offsets, and
// returns its size: for a reader that reads only the parts of a file it
// needs. It is a bare descriptor, not an [os.File], which costs two more
// system calls to make (fcntl) and a finalizer.
func (d *Dir) OpenRead(name string) (ReaderAt, int64, error) {
	fd, size, err := d.openFd(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, 0, err
	}
	return &fdReader{fd: fd, path: d.Path(name)}, size, nil
}

// fdReader is a regular file's descriptor read with pread(2); O_NONBLOCK,
// left set, means nothing for a regular file.
type fdReader struct {
	fd   int
	path string
}

func (r *fdReader) ReadAt(b []byte, off int64) (int, error) {
	n := 0
	for n < len(b) {
		m, err := unix.Pread(r.fd, b[n:], off+int64(n))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return n, &fs.PathError{Op: "read", Path: r.path, Err: err}
		}
		if m == 0 {
			return n, io.EOF
		}
		n += m
	}
	return n, nil
}

func (r *fdReader) Close() error { return unix.Close(r.fd) }

// Rename renames old to new inside d. Like rename(2) it never follows a
// link: a link named new is replaced, not written through.
func (d *Dir) Rename(old, new string) error {
	if err := checkNames(old, new); err != nil {
		return err
	}
	if err := unix.Renameat(d.fd, old, d.fd, new); err != nil {
		return &os.LinkError{Op: "rename", Old: d.Path(old), New: d.Path(new), Err: err}
	}
	return nil
}

// Link makes new a second name of the file old inside d; it fails with
// fs.ErrExist if new is taken by anything, a link included.
func (d *Dir) Link(old, new string) error {
	if err := checkNames(old, new); err != nil {
		return err
	}
	if err := unix.Linkat(d.fd, old, d.fd, new, 0); err != nil {
		return &os.LinkError{Op: "link", Old: d.Path(old), New: d.Path(new), Err: err}
	}
	return nil
}

// Remove removes the name (not a directory) from d.
func (d *Dir) Remove(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if err := unix.Unlinkat(d.fd, name, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: d.Path(name), Err: err}
	}
	return nil
}

// Sync makes the directory's entries (a rename, a new file) durable.
func (d *Dir) Sync() error {
	if err := unix.Fsync(d.fd); err != nil {
		return &fs.PathError{Op: "sync", Path: d.path, Err: err}
	}
	return nil
}

// Names lists the names in d, in directory order.
func (d *Dir) Names() ([]string, error) {
	f, err := d.list()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// Entries lists the entries in d, sorted by name as [os.ReadDir] sorts
// them. Their types come from the listing (d_type), not from a stat of
// each name.
func (d *Dir) Entries() ([]fs.DirEntry, error) {
	f, err := d.list()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return sortEntries(f.ReadDir(-1))
}

// list returns a copy of d's descriptor to read its entries from. The
// copy shares d's offset, so it is rewound: an earlier listing left it at
// the end.
func (d *Dir) list() (*os.File, error) {
	fd, err := unix.Dup(d.fd)
	if err == nil {
		if _, err = unix.Seek(fd, 0, 0); err != nil {
			unix.Close(fd)
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: d.path, Err: err}
	}
	return os.NewFile(uintptr(fd), d.path), nil
}

// Close releases the directory's descriptor.
func (d *Dir) Close() error { return unix.Close(d.fd) }

func openat(dirfd int, name string, flag int, perm uint32) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flag, perm)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// refusal turns a failed open of name into a *RefusedError when the entry
// is not what was wanted (O_NOFOLLOW reports a link as ELOOP on Linux,
// EMLINK on FreeBSD, EFTYPE on NetBSD; a FIFO opened for writing without a
// reader is ENXIO), and into the plain error otherwise, so a missing name
// still matches fs.ErrNotExist.
func refusal(dirfd int, name, path string, wantDir bool, err error) error {
	var st unix.Stat_t
	if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
		if what := describe(modeOf(uint32(st.Mode)), wantDir); what != "" {
			return &RefusedError{Path: path, What: what}
		}
	}
	return &fs.PathError{Op: "open", Path: path, Err: err}
}

// modeOf maps st_mode (uint16 on some systems, hence the conversion at
// the callers) to the file type bits of fs.FileMode.
func modeOf(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
