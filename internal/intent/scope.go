package intent

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/atreides-dev/atreides/internal/project"
)

// Scope decides whether a path lies inside a set of owned-scope globs.
//
// Globs are doublestar patterns relative to the project root ("internal/auth/**",
// "docs/*.md"); a glob naming a directory also covers everything below it.
// An absolute glob matches absolute paths outside the project. Paths are
// judged where the bytes would land: symlinks in the existing part of a
// path are resolved (in the path and in the root), so a link inside the
// scope that points elsewhere is outside it, and ".." is cleaned away
// before matching.
type Scope struct {
	Root  string // the project root, absolute
	Globs []string

	realRoot string
}

// NewScope prepares a scope for matching.
func NewScope(root string, globs []string) *Scope {
	s := &Scope{Root: filepath.Clean(root), Globs: globs}
	s.realRoot = resolve(s.Root)
	return s
}

// Contains reports whether path (absolute, or relative to the root) is in
// the scope, and returns the path as the agent should see it: relative to
// the root when inside the project, else absolute.
func (s *Scope) Contains(path string) (shown string, ok bool) {
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(s.Root, abs)
	}
	abs = filepath.Clean(abs)
	real := resolve(abs)
	shown = abs
	if r, in := within(s.Root, abs); in {
		shown = r
	}
	rel, inside := within(s.realRoot, real)
	for _, g := range s.Globs {
		g = strings.TrimPrefix(g, "./")
		if filepath.IsAbs(g) {
			if matchGlob(filepath.ToSlash(g), filepath.ToSlash(real)) || matchGlob(filepath.ToSlash(g), filepath.ToSlash(abs)) {
				return shown, true
			}
			continue
		}
		if inside && matchGlob(g, rel) {
			return shown, true
		}
	}
	return shown, false
}

// Relative returns path relative to the project root (slash-separated)
// when it is inside the project, else the cleaned absolute path.
func Relative(root, path string) string {
	if r, ok := within(filepath.Clean(root), filepath.Clean(path)); ok {
		return r
	}
	if rr, ok := within(resolve(root), resolve(path)); ok {
		return rr
	}
	return filepath.Clean(path)
}

func matchGlob(g, p string) bool {
	if ok, _ := doublestar.Match(g, p); ok {
		return true
	}
	dir := strings.TrimSuffix(g, "/")
	if strings.HasSuffix(dir, "/**") || dir == "**" {
		return false
	}
	ok, _ := doublestar.Match(dir+"/**", p)
	return ok
}

// within returns p (absolute) relative to root, slash-separated, when p is
// root or below it.
func within(root, p string) (string, bool) { return project.Rel(root, "", p) }

// resolve follows symlinks in the longest existing prefix of p and keeps
// the rest as written; a path that does not exist yet is judged by the
// directory it would be created in.
func resolve(p string) string {
	p = filepath.Clean(p)
	rest := ""
	cur := p
	for i := 0; i < 64; i++ {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			if rest == "" {
				return r
			}
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			break
		}
		base := filepath.Base(cur)
		if rest == "" {
			rest = base
		} else {
			rest = filepath.Join(base, rest)
		}
		cur = parent
	}
	return p
}
