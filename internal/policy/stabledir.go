package policy

import "github.com/atreides-dev/atreides/internal/companion"

// StableBinDir is the directory where `atreides install`, run from npm's
// npx cache, keeps a copy of the programs for the hooks to name
// (internal/install.StableBinDir: $XDG_DATA_HOME/atreides/bin, by default
// ~/.local/share/atreides/bin). All of it is atreides's, its .version
// record too (an old version there freezes the copy), so all of it is
// protected; "" when neither is known.
func StableBinDir(home string, getenv func(string) string) string {
	return companion.StableDir(home, getenv)
}
