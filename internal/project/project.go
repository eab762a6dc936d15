package project

import (
	"os"
	"path/filepath"
)

// DirName is the per-project directory atreides owns.
const DirName = ".atreides"

// Root finds the project root for a start directory: the nearest ancestor
// that already has a .atreides directory of the user's own, else the
// nearest with .git, else start itself. A hint (such as CLAUDE_PROJECT_DIR)
// wins when set.
//
// A .atreides that is a link, or that another user owns, does not make a
// root: anyone can create /tmp/.atreides, and it would otherwise capture
// every project below /tmp, with a config.yaml that user wrote.
func Root(hint, start string) string {
	if hint != "" {
		return filepath.Clean(hint)
	}
	if start == "" {
		start, _ = os.Getwd()
	}
	start = filepath.Clean(start)
	if dir, ok := findUp(start, DirName, ownDir); ok {
		return dir
	}
	if dir, ok := findUp(start, ".git", exists); ok {
		return dir
	}
	return start
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// ownDir reports whether path is a directory, not a link, of this user's.
func ownDir(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir() && ownedBy(fi, os.Getuid())
}

func findUp(dir, name string, ok func(string) bool) (string, bool) {
	for {
		if ok(filepath.Join(dir, name)) {
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
