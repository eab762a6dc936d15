package store

import (
	"context"
	"io/fs"
	"os"
	"sync"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/filelock"
)

// An Update walks to the project's state directory, opens its lock file
// and the record sets it reads, and closes them when it ends: system
// calls on every event. A long-lived process's [Committer] keeps them
// between its Updates instead (keptDirs): the directory, its lock file
// (unlocked between Updates) and its record sets, each with a stat of its
// own descriptor. An Update that takes them checks that the directory's
// path still leads to the kept directory (one lstat: the project root is
// followed, .atreides is not, as the walk does), and, once it holds the
// lock, that the lock file's name still leads to the kept file: else it
// locked a file nobody else locks, and it lets it go and opens the lock
// afresh. A record set is checked the same way when first used. A state
// directory made again (the agent may remove it), a lock file replaced, a
// record set made again: none is the kept one, and each is opened afresh.
const (
	// maxKeptDirs bounds the state directories kept (a server serves
	// a few projects), maxKeptHandles the handles kept of each: Updates
	// of one project that overlap (one saving behind its answer while
	// the next starts) each need their own lock file descriptor, as
	// flock excludes descriptors, not processes.
	maxKeptDirs    = 16
	maxKeptHandles = 2
)

// keptDirs are the state directory handles a Committer keeps, by path,
// while no Update uses them: an Update takes one and puts it back, so a
// handle is never used by two at once.
type keptDirs struct {
	mu     sync.Mutex
	idle   map[string][]*keptDir
	closed bool
}

// keptDir is a state directory kept open, its lock file, and its record
// sets.
type keptDir struct {
	dir    *confined.Dir
	fi     fs.FileInfo
	lock   *os.File
	lockFi fs.FileInfo
	sets   map[string]keptSet
}

// keptSet is a record set's directory kept open.
type keptSet struct {
	d  *confined.Dir
	fi fs.FileInfo
}

// take removes one of path's handles and returns it (nil: none).
func (k *keptDirs) take(path string) *keptDir {
	k.mu.Lock()
	defer k.mu.Unlock()
	hs := k.idle[path]
	if len(hs) == 0 {
		return nil
	}
	kd := hs[len(hs)-1]
	if len(hs) == 1 {
		delete(k.idle, path)
	} else {
		k.idle[path] = hs[:len(hs)-1]
	}
	return kd
}

// wants reports that a handle of path put back would be kept.
func (k *keptDirs) wants(path string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	hs, ok := k.idle[path]
	return !k.closed && len(hs) < maxKeptHandles && (ok || len(k.idle) < maxKeptDirs)
}

// put keeps kd as a handle of path, or closes it when the bounds are met.
func (k *keptDirs) put(path string, kd *keptDir) {
	k.mu.Lock()
	defer k.mu.Unlock()
	hs, ok := k.idle[path]
	if k.closed || len(hs) >= maxKeptHandles || !ok && len(k.idle) >= maxKeptDirs {
		kd.close()
		return
	}
	if k.idle == nil {
		k.idle = map[string][]*keptDir{}
	}
	k.idle[path] = append(hs, kd)
}

// close closes every kept handle; later puts close theirs.
func (k *keptDirs) close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.closed = true
	for p, hs := range k.idle {
		for _, kd := range hs {
			kd.close()
		}
		delete(k.idle, p)
	}
}

// keepDir makes a handle of the state directory dir and its lock file f,
// for an Update that opened them afresh; nil when either cannot be
// described (then the caller closes them).
func keepDir(dir *confined.Dir, f *os.File) *keptDir {
	fi, err := dir.Stat()
	if err != nil {
		return nil
	}
	lockFi, err := f.Stat()
	if err != nil {
		return nil
	}
	return &keptDir{dir: dir, fi: fi, lock: f, lockFi: lockFi}
}

func (kd *keptDir) close() {
	for _, ks := range kd.sets {
		_ = ks.d.Close()
	}
	_ = kd.lock.Close()
	_ = kd.dir.Close()
}

// isAt reports that the state directory's path leads to kd's directory.
func (kd *keptDir) isAt(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir() && os.SameFile(fi, kd.fi)
}

// set is the kept directory of the record set, when its name still
// leads to it; nil: none (a stale one is closed).
func (kd *keptDir) set(set string) *confined.Dir {
	ks, ok := kd.sets[set]
	if !ok {
		return nil
	}
	if kd.dir.SameFile(set, ks.fi) {
		return ks.d
	}
	_ = ks.d.Close()
	delete(kd.sets, set)
	return nil
}

// keepSet keeps d, the record set's directory opened afresh (kd then
// closes it), unless it cannot be described.
func (kd *keptDir) keepSet(set string, d *confined.Dir) {
	fi, err := d.Stat()
	if err != nil {
		return
	}
	if kd.sets == nil {
		kd.sets = map[string]keptSet{}
	}
	kd.sets[set] = keptSet{d, fi}
}

// keeps reports that d is the kept directory of the record set.
func (kd *keptDir) keeps(set string, d *confined.Dir) bool {
	ks, ok := kd.sets[set]
	return ok && ks.d == d
}

// lockKept takes the exclusive lock through one of the handles kept of
// the state directory, when it is still the directory's and its lock
// file the directory's; ok is false when there is none to use (then
// nothing is held).
func (s *Store) lockKept(ctx context.Context, kept *keptDirs) (lk fileLock, ok bool, err error) {
	kd := kept.take(s.dir)
	if kd == nil {
		return fileLock{}, false, nil
	}
	if !kd.isAt(s.dir) {
		kd.close()
		return fileLock{}, false, nil
	}
	lk, err = s.lockHeld(ctx, fileLock{f: kd.lock, dir: kd.dir, kept: kd, keep: kept, path: s.dir}, true)
	if err != nil {
		return fileLock{}, true, err
	}
	if !kd.dir.SameFile(LockFile, kd.lockFi) {
		kd.close() // lets the lock go: nobody else takes it
		return fileLock{}, false, nil
	}
	return lk, true, nil
}

// release lets the lock go and keeps the handle for the next Update (a
// lock opened afresh becomes one), or closes what it holds.
func (l fileLock) release() {
	kd := l.kept
	if kd == nil && l.f != nil && l.keep.wants(l.path) {
		kd = keepDir(l.dir, l.f)
	}
	if kd == nil {
		l.close()
		return
	}
	if err := filelock.Unlock(kd.lock); err != nil {
		kd.close()
		return
	}
	l.keep.put(l.path, kd)
}
