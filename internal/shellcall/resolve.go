package shellcall

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
)

// errLinkLoop is returned for a chain of more than maxLinks symbolic links.
var errLinkLoop = errors.New("too many levels of symbolic links")

const maxLinks = 64

// resolver is filepath.EvalSymlinks for absolute paths with a memo of
// every prefix it has resolved: the guard resolves some thirty paths for
// one request (the project, atreides's own files, every host's settings),
// and they share their directories, so each directory costs one lstat
// per request instead of one per path.
type resolver struct {
	mu   sync.Mutex
	memo map[string]resolved
}

type resolved struct {
	path string
	err  error
}

// Resolver returns a function that resolves every symbolic link in a path
// (made absolute and cleaned first), or fails when a component does not
// exist. Its memo lives as long as the function: one per request, so that
// a link an agent creates between two requests of a long-running serve
// process is seen.
func Resolver() func(string) (string, error) {
	// Sized for a request that lists atreides's own files (some sixty
	// prefixes): growing the memo to that size was a tenth of resolving.
	r := &resolver{memo: make(map[string]resolved, 64)}
	return func(p string) (string, error) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.eval(abs, 0)
	}
}

func (r *resolver) eval(p string, links int) (string, error) {
	if p == "/" || p == filepath.VolumeName(p)+string(filepath.Separator) {
		return p, nil
	}
	if v, ok := r.memo[p]; ok {
		return v.path, v.err
	}
	s, err := r.step(p, links)
	if len(r.memo) < 4096 {
		r.memo[p] = resolved{s, err}
	}
	return s, err
}

// step resolves p's directory (memoized), then p's last element.
func (r *resolver) step(p string, links int) (string, error) {
	dir, err := r.eval(filepath.Dir(p), links)
	if err != nil {
		return "", err
	}
	q := filepath.Join(dir, filepath.Base(p))
	fi, err := os.Lstat(q)
	if err != nil {
		return "", err
	}
	if fi.Mode()&os.ModeSymlink == 0 {
		return q, nil
	}
	if links >= maxLinks {
		return "", &os.PathError{Op: "resolve", Path: p, Err: errLinkLoop}
	}
	target, err := os.Readlink(q)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		// dir has no links left, so ".." in the target is lexical.
		target = filepath.Join(dir, target)
	}
	return r.eval(filepath.Clean(target), links+1)
}
