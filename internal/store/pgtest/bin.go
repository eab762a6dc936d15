package pgtest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// errNoServer is what a test sees when the server binaries are missing: the
// tests need them, so they fail and say how to install them.
var errNoServer = errors.New("pgtest: the PostgreSQL server binaries (initdb, postgres) are not on PATH, " +
	"in `pg_config --bindir` or in /usr/lib/postgresql/*/bin; install them with scripts/install-postgres (as root)")

// debianBins is where Debian's packages put each major version's server.
const debianBins = "/usr/lib/postgresql/*/bin"

// findBin returns the directory holding initdb and postgres, looked up as
// scripts/install-postgres does: PATH's initdb (Debian puts only wrappers
// on PATH, so usually not), then pg_config's bindir, then the newest
// version among the directories matching versions (debianBins).
func findBin(versions string) (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if p, err = filepath.EvalSymlinks(p); err == nil && isServerDir(filepath.Dir(p)) {
			return filepath.Dir(p), nil
		}
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		if d := strings.TrimSpace(string(out)); isServerDir(d) {
			return d, nil
		}
	}
	dirs, _ := filepath.Glob(versions)
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if isServerDir(d) {
			return d, nil
		}
	}
	return "", errNoServer
}

// version is the major version in .../<major>/bin, 0 when
// it is not a number.
func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func isServerDir(dir string) bool {
	for _, name := range []string{"initdb", "postgres"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return false
		}
	}
	return true
}
