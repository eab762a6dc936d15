package install

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/companion"
	"github.com/atreides-dev/atreides/internal/guard"
)

// npxDir is the directory of npm's npx cache (~/.npm/_npx/<hash>/...):
// 'npx -y @atreides-dev/atreides install' runs atreides from there, and
// npm deletes it when it likes, so a hook must never name a path in it.
const npxDir = "_npx"

// InNpxCache says whether exe (its links resolved) lies in npm's npx
// cache.
func InNpxCache(exe string) bool {
	return slices.Contains(strings.Split(filepath.ToSlash(exe), "/"), npxDir)
}

// StableBinDir is where a copy of atreides run from the npx cache is
// kept for hooks to name: $XDG_DATA_HOME/atreides/bin, by default
// ~/.local/share/atreides/bin. The guard protects all of it, the
// .version record too (policy.StableBinDir names the same directory).
func StableBinDir(getenv func(string) string) (string, error) {
	if d := companion.StableDir(getenv("HOME"), getenv); d != "" {
		return d, nil
	}
	return "", errors.New("neither XDG_DATA_HOME nor HOME is set: nowhere to keep a copy of atreides")
}

// versionFile records the version of the programs in a stable directory.
const versionFile = ".version"

// SelfCopy copies atreides (exe) and the companions beside it into dir
// and returns the path of the copy of atreides, and whether it copied.
// A copy of the same or a newer release already there is kept. Each file
// is written beside its place and renamed onto it, companions first and
// atreides last, so a hook running meanwhile finds the old program or
// the new one, never half of one.
func SelfCopy(exe, dir, version string) (string, bool, error) {
	dst := filepath.Join(dir, exeName("atreides"))
	if old, err := os.ReadFile(filepath.Join(dir, versionFile)); err == nil && !newer(version, strings.TrimSpace(string(old))) && CheckExecutable(dst) == "" {
		return dst, false, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, fmt.Errorf("copy atreides: %w", err)
	}
	for _, p := range append(guard.Programs()[1:], guard.Programs()[0]) {
		src := filepath.Join(filepath.Dir(exe), exeName(p))
		if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) && p != "atreides" {
			continue // a companion this install lacks; its commands say so
		}
		if err := copyAtomic(src, filepath.Join(dir, exeName(p))); err != nil {
			return "", false, err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, versionFile), []byte(version+"\n"), 0o644); err != nil {
		return "", false, fmt.Errorf("copy atreides: %w", err)
	}
	return dst, true, nil
}

func exeName(p string) string {
	if runtime.GOOS == "windows" {
		return p + ".exe"
	}
	return p
}

// copyAtomic copies the program src onto dst through a temporary file
// in dst's directory.
func copyAtomic(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("copy atreides: %w", err)
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-*")
	if err != nil {
		return fmt.Errorf("copy atreides: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := io.Copy(tmp, in); err != nil {
		tmp.Close()
		return fmt.Errorf("copy %s: %w", src, err)
	}
	if err := tmp.Chmod(0o755); err != nil {
		tmp.Close()
		return fmt.Errorf("copy %s: %w", src, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return nil
}

// newer says whether version should replace old: unless old is a
// release with a higher vX.Y.Z, the running program wins (a snapshot or
// devel build, or the same numbers with another suffix, replaces it).
func newer(version, old string) bool {
	if version == old {
		return false
	}
	v, okV := triple(version)
	o, okO := triple(old)
	if okV && okO && slices.Compare(o, v) > 0 {
		return false
	}
	return true
}

// triple is vX.Y.Z's numbers, ignoring a suffix.
func triple(v string) ([]int, bool) {
	core, _, _ := strings.Cut(strings.TrimPrefix(v, "v"), "-")
	core, _, _ = strings.Cut(core, "+")
	parts := strings.Split(core, ".")
	if len(parts) != 3 || !strings.HasPrefix(v, "v") {
		return nil, false
	}
	out := make([]int, 3)
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// OnPathOutsideNpx says whether a program named atreides is on path (a
// PATH value) outside the npx cache: npx puts its own directory first on
// PATH, so a lookup while it runs finds a program the hooks will not
// find afterwards.
func OnPathOutsideNpx(path string) bool {
	for _, d := range filepath.SplitList(path) {
		if d == "" || InNpxCache(d) {
			continue
		}
		if CheckExecutable(filepath.Join(d, exeName(PortableBinary))) == "" {
			return true
		}
	}
	return false
}

// npmPackage is the npm package that puts atreides on PATH.
const npmPackage = "@atreides-dev/atreides"

// StableHookBinary is the program hooks of a user or local install name
// for self (this atreides, links resolved): self, or, when it runs from
// the npx cache ('npx -y @atreides-dev/atreides install ...'), a copy of
// the programs in StableBinDir, with a note saying so. version is this
// atreides's.
func StableHookBinary(self, version string, getenv func(string) string) (bin, note string, err error) {
	if !InNpxCache(self) {
		return self, "", nil
	}
	dir, err := StableBinDir(getenv)
	if err != nil {
		return "", "", err
	}
	if bin, _, err = SelfCopy(self, dir, version); err != nil {
		return "", "", fmt.Errorf("atreides runs from npm's npx cache, which npm deletes, and could not be copied out of it for the hooks to name: %w (install it with 'npm install -g %s', or pass --bin)", err, npmPackage)
	}
	return bin, fmt.Sprintf("atreides runs from npm's npx cache, which npm deletes; the hooks name a copy in %s instead (a newer atreides replaces it)", dir), nil
}

// NpxProjectNote says what to do when this atreides runs from the npx
// cache and project-scope hooks, which run 'atreides' from PATH, would
// not find it once npx ends ("" when there is nothing to say).
func NpxProjectNote(getenv func(string) string) string {
	self, err := companion.Self()
	if err != nil {
		return ""
	}
	if !InNpxCache(self) || OnPathOutsideNpx(getenv("PATH")) {
		return ""
	}
	return "the project's hooks run 'atreides' from PATH, and this one runs from npm's npx cache, which is on PATH only while npx runs; to make the hooks work, put atreides on PATH: npm install -g " + npmPackage
}
