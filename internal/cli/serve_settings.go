package cli

import (
	"errors"
	"io/fs"
	"os"
	"sync"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/project"
)

// maxServedRoots bounds the projects serve keeps settings for; the one
// used longest ago is forgotten first. The OpenCode plugin serves one
// directory, so this is slack for a server shared by a few.
const maxServedRoots = 16

// servedRoots keeps, for each project serve answers for, what its
// requests share: the configuration, the guard policy compiled from it
// and the session options (one [settings]), and the project log. A
// request stats the configuration files (a few microseconds) and builds
// them again only when one of them changed: appeared, went, or changed
// size, time, mode or identity.
type servedRoots struct {
	mu    sync.Mutex
	roots map[string]*servedRoot
	clock uint64 // counts lookups, for forgetting the least recently used
}

type servedRoot struct {
	s     *settings
	stamp []fileStamp
	log   *project.Log
	used  uint64
}

// get returns the settings of root, built again if its configuration
// files changed since they were, and loaded: whatever an event may ask of
// them is parsed and compiled here, before the state lock is taken, not
// by the first handler that needs it while it holds the lock.
func (r *servedRoots) get(root string) (*settings, *project.Log) {
	paths := config.DefaultPaths(root)
	stamp := stampFiles(paths.User, paths.Project)
	r.mu.Lock()
	if r.roots == nil {
		r.roots = map[string]*servedRoot{}
	}
	r.clock++
	p := r.roots[root]
	if p == nil || !sameStamps(p.stamp, stamp) {
		if p == nil && len(r.roots) >= maxServedRoots {
			r.forgetOldest()
		}
		log := project.NewLog(project.StateDir(root))
		if p != nil {
			log = p.log
		}
		p = &servedRoot{s: newSettings(root), stamp: stamp, log: log}
		r.roots[root] = p
	}
	p.used = r.clock
	r.mu.Unlock()
	p.s.load()
	return p.s, p.log
}

// forgetOldest drops the root used longest ago; r.mu held.
func (r *servedRoots) forgetOldest() {
	var oldest string
	for k, v := range r.roots {
		if oldest == "" || v.used < r.roots[oldest].used {
			oldest = k
		}
	}
	delete(r.roots, oldest)
}

// load loads everything the settings hold (each once: the values are
// kept, so this costs nothing after the first time). A file that does not
// parse is kept as the error the handlers report, as in a hook.
func (s *settings) load() {
	_, _ = s.cfg.Get()
	_, _ = s.policy()
	s.session()
}

// fileStamp is what a stat tells of a file without reading it.
type fileStamp struct {
	fi  fs.FileInfo // nil when the stat failed
	err string      // why it failed ("" when it did not)
}

// stampFiles stats each file, and the target of one that is a link (a
// user's config.yaml linked from a dotfiles repository is edited there).
func stampFiles(paths ...string) []fileStamp {
	var out []fileStamp
	for _, p := range paths {
		if p == "" {
			continue
		}
		fi, err := os.Lstat(p)
		out = append(out, stampOf(fi, err))
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			out = append(out, stampOf(os.Stat(p)))
		}
	}
	return out
}

func stampOf(fi fs.FileInfo, err error) fileStamp {
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fileStamp{err: "not found"}
		}
		return fileStamp{err: err.Error()}
	}
	return fileStamp{fi: fi}
}

// sameStamps reports whether two stats of the same files found them
// unchanged.
func sameStamps(a, b []fileStamp) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.err != y.err || (x.fi == nil) != (y.fi == nil) {
			return false
		}
		if x.fi != nil && (!os.SameFile(x.fi, y.fi) || x.fi.Size() != y.fi.Size() ||
			!x.fi.ModTime().Equal(y.fi.ModTime()) || x.fi.Mode() != y.fi.Mode()) {
			return false
		}
	}
	return true
}
