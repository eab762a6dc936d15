package companion

import (
	"fmt"
	"os"
	"path/filepath"
)

// Self is the running atreides binary's path with symlinks resolved:
// the directory the companions sit in (npm's node_modules/.bin/atreides
// is a link into the package that holds them).
func Self() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find the atreides binary: %w", err)
	}
	if r, err := filepath.EvalSymlinks(self); err == nil {
		self = r
	}
	return self, nil
}

// StableDir is where 'atreides install', run from npm's npx cache (which
// npm deletes at will), keeps a copy of the programs for the hooks to
// name: $XDG_DATA_HOME/atreides/bin, by default ~/.local/share/atreides/bin
// under home; "" when neither is known. Install writes it and the guard
// protects all of it, so both ask here.
func StableDir(home string, getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "atreides", "bin")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "atreides", "bin")
}
