package hook

import (
	"sync"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
)

// maxServedRoots bounds the projects serve keeps settings for; the one
// used longest ago is forgotten first. The OpenCode plugin serves one
// directory, so this is slack for a server shared by a few.
const maxServedRoots = 16

// servedRoots keeps, for each project serve answers for, what its
// requests share: the configuration, the guard policy compiled from it,
// the session options and the handler list (one [Settings], its list
// kept by servedHandlers), and the project log; and, for all of them,
// the hosts' lists of files the guard protects (servedHosts). A request
// stats the configuration files (a few microseconds) and builds the
// settings again only when their [config.Paths.Stamp] changed.
type servedRoots struct {
	// proc is the server's process, whose settings these are.
	proc *Process
	// hosts is what the guard knows of the hosts, its lists kept for
	// the server's life (servedHosts); nil: all.Guard().
	hosts *policy.Hosts
	mu    sync.Mutex
	roots map[string]*servedRoot
	clock uint64 // counts lookups, for forgetting the least recently used
}

type servedRoot struct {
	s     *Settings
	stamp string
	log   *project.Log
	used  uint64
}

// get returns the settings of root, built again if its configuration
// files changed since they were, and loaded: whatever an event may ask of
// them is parsed and compiled here, before the state lock is taken, not
// by the first handler that needs it while it holds the lock.
func (r *servedRoots) get(root string) (*Settings, *project.Log) {
	paths := config.DefaultPaths(root)
	// A stamp holding a stat error stays the same while the error does,
	// so the settings (which report it) are not rebuilt on every request.
	stamp, _ := paths.Stamp()
	r.mu.Lock()
	if r.roots == nil {
		r.roots = map[string]*servedRoot{}
	}
	r.clock++
	p := r.roots[root]
	if p == nil || p.stamp != stamp {
		if p == nil && len(r.roots) >= maxServedRoots {
			r.forgetOldest()
		}
		var log *project.Log
		if p != nil {
			log = p.log
		} else {
			log = project.NewLog(project.StateDir(root))
		}
		s := r.proc.settings(root)
		s.hosts = r.hosts
		s.eventHandlers = servedHandlers(s)
		s.trail = audit.New(project.StateDir(root), s.auditMaxBytes).Keep()
		p = &servedRoot{s: s, stamp: stamp, log: log}
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
func (s *Settings) load() {
	_, _ = s.cfg.Get()
	_, _ = s.policy()
	s.session()
}
