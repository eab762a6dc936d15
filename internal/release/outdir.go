package release

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Marker is the file that says a directory is a release's output, which
// the next release may wipe.
const Marker = ".atreides-release"

// prepareOut empties dir for a new release: it wipes it only when it is
// missing, empty, or holds the Marker of an earlier release, so that a
// mistyped --out (the repository, the home directory) loses nothing.
func prepareOut(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("output directory: %w", err)
	case len(entries) == 0:
	default:
		if _, err := os.Stat(filepath.Join(dir, Marker)); err != nil {
			return fmt.Errorf("output directory %s is not empty and is not an earlier release's output (no %s in it); refusing to wipe it: name an empty or new directory", dir, Marker)
		}
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("wipe the earlier release in %s: %w", dir, err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, Marker), []byte("made by scripts/release; the next release wipes this directory\n"), 0o644)
}
