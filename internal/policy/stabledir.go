package policy

import "path/filepath"

// StableBinDir is the directory where `atreides install`, run from npm's
// npx cache, keeps a copy of the programs for the hooks to name
// (internal/install.StableBinDir: $XDG_DATA_HOME/atreides/bin, by default
// ~/.local/share/atreides/bin). All of it is atreides's, its .version
// record too (an old version there freezes the copy), so all of it is
// protected; "" when neither is known.
func StableBinDir(home string, getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "atreides", "bin")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "atreides", "bin")
}
