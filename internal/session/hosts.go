package session

import (
	"os"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/event"
)

// hostInstructions returns the first of the host's own instruction files
// ([event.HostFacts.Instructions]) that exists at the project root, or "".
func hostInstructions(f *event.HostFacts, root string) string {
	for _, name := range f.Instructions {
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err == nil && fi.Mode().IsRegular() {
			return name
		}
	}
	return ""
}
