package shell

import (
	"path"
	"strings"
)

// MaxPathLen is the longest path the system calls take (PATH_MAX on
// Linux, longer than Windows' and macOS's): a longer one names nothing
// that exists, so it is not handed to a resolver.
const MaxPathLen = 4096

// maxLinkHops bounds the links and missing directories resolveMissing
// follows (the system's own limit is 40 links).
const maxLinkHops = 40

// maxLinks bounds the links a command is known to create.
const maxLinks = 64

// Paths turns the path arguments of one command into the absolute,
// clean, resolved paths they name, the way the system will when the
// command runs: ~ is the home directory, a relative path is joined to
// the directory the command is in, symbolic links on disk are followed
// (a missing file through its existing directory, a dangling link to the
// file it will create), and so are the links the command itself creates
// before that point (Link), which are not on disk yet. Answers are kept
// for the command: its rules ask about the same argument many times.
type Paths struct {
	home string
	// resolve resolves every link of an existing path (nil: paths are
	// only cleaned); readlink reads one link (nil: dangling links are not
	// followed).
	resolve, readlink func(string) (string, error)
	links             map[string]string
	memo              map[canonKey]string
}

// canonKey is everything Canon reads: the argument and the directory it
// is relative to.
type canonKey struct {
	s, cwd string
	known  bool
}

// NewPaths resolves paths against home with resolve and readlink (either
// may be nil).
func NewPaths(home string, resolve, readlink func(string) (string, error)) Paths {
	return Paths{home: home, resolve: resolve, readlink: readlink}
}

// Canon is the absolute, clean, resolved path s names in the directory
// cwd; ok is false when s is relative and the directory is not known
// (known false). spend is charged one unit for each link read and says
// whether the work may go on.
func (p *Paths) Canon(s, cwd string, known bool, spend func(int) bool) (string, bool) {
	k := canonKey{s: s, cwd: cwd, known: known}
	if c, ok := p.memo[k]; ok {
		return c, c != ""
	}
	c := p.canonOnce(s, cwd, known, spend)
	if p.memo == nil {
		p.memo = map[canonKey]string{}
	}
	p.memo[k] = c
	return c, c != ""
}

func (p *Paths) canonOnce(s, cwd string, known bool, spend func(int) bool) string {
	s = ExpandHome(s, p.home)
	if !path.IsAbs(s) && !known {
		return ""
	}
	c := CleanJoin(cwd, s)
	if c == "" {
		return ""
	}
	if len(p.links) > 0 {
		c = p.throughLinks(c)
	}
	if p.resolve != nil {
		if r, err := p.resolve(c); err == nil && r != "" {
			return path.Clean(r)
		}
		return p.resolveMissing(c, 0, spend)
	}
	return c
}

// resolveMissing resolves a path that does not exist (yet): its existing
// directory through the resolver, then its last element, following it
// when it is a dangling link (notes.txt -> .claude/settings.local.json,
// which writing notes.txt creates).
func (p *Paths) resolveMissing(c string, hops int, spend func(int) bool) string {
	if len(c) > MaxPathLen || hops > maxLinkHops {
		return c // names nothing on disk
	}
	dir, base := path.Split(c)
	dir = path.Clean(dir)
	if dir == c {
		return c
	}
	d, err := p.resolve(dir)
	switch {
	case err == nil && d != "":
		d = path.Clean(d)
	case dir != "/" && hops < maxLinkHops:
		d = p.resolveMissing(dir, hops+1, spend)
	default:
		d = dir
	}
	q := path.Join(d, base)
	if p.readlink == nil || !spend(1) {
		return q
	}
	t, lerr := p.readlink(q)
	if lerr != nil || t == "" {
		return q
	}
	if !path.IsAbs(t) {
		t = path.Join(d, t) // relative to the link's directory
	}
	t = path.Clean(t)
	if r, err := p.resolve(t); err == nil && r != "" {
		return path.Clean(r)
	}
	return p.resolveMissing(t, hops+1, spend)
}

// throughLinks rewrites c through the symbolic links the command itself
// creates before this point (`ln -s .atreides cfg && echo x >
// cfg/config.yaml`): they are not on disk when the analysis looks.
func (p *Paths) throughLinks(c string) string {
	for range maxLinkHops {
		changed := false
		for q := c; q != "/" && q != "."; q = path.Dir(q) {
			if t, ok := p.links[q]; ok {
				c = path.Join(t, strings.TrimPrefix(c, q))
				changed = true
				break
			}
		}
		if !changed {
			return c
		}
	}
	return c
}

// Link records that the command creates a link at the absolute path link
// to target (absolute): the paths after it go through it. At most
// maxLinks are kept. The answers worked out before are stale, so they
// are dropped.
func (p *Paths) Link(link, target string) {
	if p.links == nil {
		p.links = map[string]string{}
	}
	if len(p.links) < maxLinks {
		p.links[link] = target
	}
	clear(p.memo)
}

// ExpandHome replaces a leading ~ (alone or before "/") with home, when
// home is known.
func ExpandHome(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return home + p[1:]
	}
	return p
}

// CleanJoin makes p absolute against cwd and resolves "." and ".."; ""
// when p is relative and cwd unknown ("").
func CleanJoin(cwd, p string) string {
	if !path.IsAbs(p) {
		if cwd == "" {
			return ""
		}
		p = cwd + "/" + p
	}
	return path.Clean(p)
}
