package trace

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Every file the ledger opens, under .atreides and in the user's config
// directory, is opened by the functions in this file, so that they can
// switch in one place to opening files without following symlinks.

// ledgerFile is the ledger as the writer uses it; tests substitute one
// that fails after a number of bytes, as a full disk does.
type ledgerFile interface {
	io.ReaderAt
	io.Writer
	Stat() (fs.FileInfo, error)
	Truncate(size int64) error
	Close() error
}

// openLedger opens the ledger for reading and appending, creating it and
// its directory.
func openLedger(path string) (ledgerFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
}

// readFile reads a whole file the ledger owns.
func readFile(path string) ([]byte, error) { return os.ReadFile(path) }

// listDir lists a directory the ledger owns; a missing one is empty.
func listDir(dir string) ([]fs.DirEntry, error) {
	es, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return es, err
}

// removeFile removes a file (or an empty directory) the ledger owns.
func removeFile(path string) error { return os.Remove(path) }

// moveFile renames a file the ledger owns.
func moveFile(from, to string) error { return os.Rename(from, to) }

// writeFile puts data at path in one step: a temporary file in the same
// directory, synced first if durable, then renamed over path (replace) or
// hard-linked to it (!replace, which fails with fs.ErrExist when path is
// taken). Readers see the old file or the new one, never part of one.
func writeFile(path string, data []byte, perm fs.FileMode, replace, durable bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, dirPerm(perm)); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm)
	}
	if werr == nil && durable {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return werr
	}
	if replace {
		return os.Rename(tmp, path)
	}
	return os.Link(tmp, path)
}

// overwriteFile writes data over the start of path in place, creating
// it, padded with spaces to the file's length (at least the next 4 KiB) so
// that nothing of a longer earlier content is left after it. No rename and
// no truncation: see Anchor.CheckpointPaths for why.
func overwriteFile(path string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), dirPerm(perm)); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, perm)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return err
	}
	buf := bytes.Repeat([]byte{' '}, int(max(fi.Size(), int64(len(data)+4095)/4096*4096)))
	copy(buf, data)
	_, err = f.WriteAt(buf, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// dirPerm is the mode of a directory created for files of mode perm: the
// key and checkpoints (0600) get a private directory.
func dirPerm(perm fs.FileMode) fs.FileMode {
	if perm&0o077 == 0 {
		return 0o700
	}
	return 0o755
}

// asideName is a free name beside path for a file kept aside; the store's
// .gitignore keeps *.corrupt-* out of commits.
func asideName(path string) string {
	var r [3]byte
	_, _ = rand.Read(r[:])
	return fmt.Sprintf("%s.corrupt-%s-%s", path, time.Now().UTC().Format("20060102T150405.000Z"), hex.EncodeToString(r[:]))
}
