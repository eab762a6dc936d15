package trace

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
)

// Every file the ledger opens is opened here, through package confined,
// below one of two trusted directories:
//
//   - the project root, for the ledger <root>/.atreides/trace.jsonl, its
//     queue trace.jsonl.pending/ and the files kept aside beside it. The
//     root is the user's and is followed; .atreides and everything in it
//     come from the repository and are not;
//   - the user's configuration directory, for the key and the
//     checkpoints. The directory itself is followed: the user chose it,
//     and dotfile managers (GNU Stow folding a directory) make it a link,
//     as the config loader allows for the user's config file. The key and
//     checkpoint files and the checkpoints directory are not: a link there
//     would let whoever planted it read the key through it or aim the
//     signature at another file.
//
// A link, FIFO or device in place of any of these is refused with
// confined.ErrRefused: never read, written through or waited on.

// Bounds on what is read: far above any real file, they keep a regular
// file planted in the repository from taking the hook's memory.
const (
	maxLedger = 1 << 30 // about 1.5 million records
	maxQueued = 1 << 20 // one queued record
	maxSmall  = 64 << 10
)

// ledgerFile is the ledger as the writer uses it; tests substitute one
// that fails after a number of bytes, as a full disk does.
type ledgerFile interface {
	io.ReaderAt
	io.Writer
	Stat() (fs.FileInfo, error)
	Truncate(size int64) error
	Close() error
}

// splitLedger cuts the ledger's path into the project root, which is
// followed, and the directory and name below it, which are not.
func splitLedger(path string) (root, dir, name string) {
	root, rel := confined.Split(path, 2)
	return root, filepath.Dir(rel), filepath.Base(rel)
}

// openLedger opens the ledger for reading and appending, creating it and
// its directory.
func openLedger(path string) (ledgerFile, error) {
	root, dir, name := splitLedger(path)
	d, err := confined.MkdirAll(root, dir, 0o755)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.OpenFile(name, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
}

// readLedger reads the whole ledger.
func readLedger(path string) ([]byte, error) {
	root, dir, name := splitLedger(path)
	return confined.ReadFile(root, filepath.Join(dir, name), maxLedger)
}

// keepAside writes data into a new file beside the ledger, named for the
// ledger with asideSuffix, and returns that name.
func keepAside(path string, data []byte) (string, error) {
	root, dir, name := splitLedger(path)
	d, err := confined.OpenDir(root, dir)
	if err != nil {
		return "", err
	}
	defer d.Close()
	aside := name + asideSuffix()
	return aside, publish(d, aside, data, 0o644, false)
}

// openQueue opens the ledger's queue directory (PendingDir); create makes
// it, and .atreides, when missing.
func openQueue(path string, create bool) (*confined.Dir, error) {
	root, dir, name := splitLedger(path)
	rel := filepath.Join(dir, filepath.Base(PendingDir(name)))
	if create {
		return confined.MkdirAll(root, rel, 0o755)
	}
	return confined.OpenDir(root, rel)
}

// queuedNames lists the names of the records in the queue directory d,
// oldest first.
func queuedNames(d *confined.Dir) ([]string, error) {
	es, err := d.Entries()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range es { // sorted by name, and names start with the time queued
		if n := e.Name(); strings.HasSuffix(n, ".json") && !strings.HasPrefix(n, ".") && e.Type().IsRegular() {
			out = append(out, n)
		}
	}
	return out, nil
}

// readConfigFile reads the file rel below the configuration directory dir.
func readConfigFile(dir, rel string) ([]byte, error) {
	return confined.ReadFile(dir, rel, maxSmall)
}

// createConfigFile puts data into the new file name in the configuration
// directory dir, durably, creating dir (0700) if needed; it fails with
// fs.ErrExist when name is taken.
func createConfigFile(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	d, err := confined.OpenDir(dir, "")
	if err != nil {
		return err
	}
	defer d.Close()
	return publish(d, name, data, 0o600, true)
}

// overwriteConfigFile writes data over the start of the file rel below the
// configuration directory dir in place, creating it (0600, in 0700
// directories), padded with spaces to the file's length (at least the next
// 4 KiB) so that nothing of a longer earlier content is left after it. No
// rename and no truncation: see Anchor.CheckpointPaths for why.
func overwriteConfigFile(dir, rel string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	d, err := confined.MkdirAll(dir, filepath.Dir(rel), 0o700)
	if err != nil {
		return err
	}
	defer d.Close()
	f, err := d.OpenFile(filepath.Base(rel), os.O_RDWR|os.O_CREATE, 0o600)
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

// publish puts data into the new file name in d in one step: a temporary
// file in d, synced first if durable, then hard-linked to name, which
// fails with fs.ErrExist when name is taken (by anything, a link too).
// Readers see no file or the whole one, never part of it.
func publish(d *confined.Dir, name string, data []byte, perm fs.FileMode, durable bool) error {
	f, err := d.CreateTemp(".tmp-*")
	if err != nil {
		return err
	}
	tmp := filepath.Base(f.Name())
	defer d.Remove(tmp)
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil && durable {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return d.Link(tmp, name)
}

// asideSuffix makes a free name for a file kept aside; the store's
// .gitignore keeps *.corrupt-* out of commits.
func asideSuffix() string {
	var r [3]byte
	_, _ = rand.Read(r[:])
	return fmt.Sprintf(".corrupt-%s-%s", time.Now().UTC().Format("20060102T150405.000Z"), hex.EncodeToString(r[:]))
}
