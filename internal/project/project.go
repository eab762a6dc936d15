package project

import (
	"os"
	"path/filepath"
)

// DirName is the per-project directory atreides owns.
const DirName = ".atreides"

// Root finds the project root for a start directory: the nearest ancestor
// that already has a .atreides directory, else the nearest with .git, else
// start itself. A hint (such as CLAUDE_PROJECT_DIR) wins when set.
func Root(hint, start string) string {
	if hint != "" {
		return filepath.Clean(hint)
	}
	if start == "" {
		start, _ = os.Getwd()
	}
	start = filepath.Clean(start)
	if dir, ok := findUp(start, DirName); ok {
		return dir
	}
	if dir, ok := findUp(start, ".git"); ok {
		return dir
	}
	return start
}

func findUp(dir, name string) (string, bool) {
	for {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// StateDir is the .atreides directory of a project root.
func StateDir(root string) string { return filepath.Join(root, DirName) }
