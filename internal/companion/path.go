package companion

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Path is the path of a companion program installed next to the
// atreides binary (atreides-mcp, atreides-ui): programs kept apart so
// that hooks do not pay their packages' init. pkg is where it is built
// from, for the message when it is missing.
func Path(name, pkg string) (string, error) {
	self, err := Self()
	if err != nil {
		return "", err
	}
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	bin := filepath.Join(filepath.Dir(self), name)
	if _, err := os.Stat(bin); err != nil {
		if src, ok := GoInstalled(); ok {
			return "", fmt.Errorf("%s is not installed next to %s; install the companions with 'go install %s/cmd/...@%s'", name, self, src.Module, src.Version)
		}
		return "", fmt.Errorf("%s is not installed next to %s; build it with 'go build -o %s %s' (it is a separate program so hooks stay fast)", name, self, bin, pkg)
	}
	return bin, nil
}
