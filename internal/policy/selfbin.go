package policy

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/atreides-dev/atreides/internal/guard"
)

// PathDirs are the absolute directories of a PATH value, cleaned; a
// relative entry (".", "bin") moves with the working directory and is
// left out.
func PathDirs(path string) []string {
	var out []string
	for _, d := range filepath.SplitList(path) {
		if filepath.IsAbs(d) {
			out = append(out, filepath.Clean(d))
		}
	}
	return out
}

// SameBinary reports whether the regular file at p has the content of an
// installed atreides program (the running binary or a companion
// atreides-* beside it): a copy under another name is judged like
// atreides itself (guard.Request.SameBinary). Sizes are compared first,
// so a file of another size costs one stat and is never read.
func SameBinary(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	var sum []byte
	for _, b := range installed() {
		if b.size != fi.Size() {
			continue
		}
		if sum == nil {
			if sum = fileSum(p); sum == nil {
				return false
			}
		}
		if h := b.sum(); h != nil && bytes.Equal(h, sum) {
			return true
		}
	}
	return false
}

// binary is an installed atreides program, its content hashed on first
// need.
type binary struct {
	size int64
	sum  func() []byte
}

// installed lists the running binary and the other atreides programs
// beside it, once per process: a stat of each name, never a listing of
// the directory (atreides may live in /usr/bin).
func installed() []binary {
	installedOnce.Do(func() { installedBins = findInstalled() })
	return installedBins
}

// See selfOnce.
var (
	installedOnce sync.Once
	installedBins []binary
)

func findInstalled() []binary {
	self := Self()
	if self == "" {
		return nil
	}
	paths := []string{self}
	for _, n := range guard.Programs() {
		if p := filepath.Join(filepath.Dir(self), n); p != self {
			paths = append(paths, p)
		}
	}
	var out []binary
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		out = append(out, binary{size: fi.Size(), sum: sync.OnceValue(func() []byte { return fileSum(p) })})
	}
	return out
}

// fileSum is the SHA-256 of the file at p, nil when it cannot be read.
func fileSum(p string) []byte {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil
	}
	return h.Sum(nil)
}

// PackageDir is the directory of the plugin or extension package self
// runs from ("" when it runs from none): internal/hostpack lays out
// <package>/bin/<os>-<arch>/atreides beside the launcher
// <package>/bin/atreides. Claude Code runs a directory marketplace's
// plugin from its source folder, not from a copy under ~/.claude, so the
// package is found from the binary, not only from the hosts' folders.
// It costs one stat.
func PackageDir(self string) string {
	bin := filepath.Dir(filepath.Dir(self))
	if self == "" || filepath.Base(bin) != "bin" {
		return ""
	}
	if fi, err := os.Stat(filepath.Join(bin, "atreides")); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return filepath.Dir(bin)
}
