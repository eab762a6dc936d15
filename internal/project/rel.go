package project

import "path/filepath"

// Rel is p relative to root, slash-separated, when p is root itself or
// below it; a relative p is taken from cwd (root when cwd is ""). Every
// handler that shows, matches or judges a path by its place in the
// project asks this one question the same way.
func Rel(root, cwd, p string) (string, bool) {
	if root == "" || p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		if cwd == "" {
			cwd = root
		}
		p = filepath.Join(cwd, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
