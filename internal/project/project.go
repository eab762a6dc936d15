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
//
// Nor does a marker in the home directory or a temp directory itself
// (~/.atreides left by a command run in ~, a dotfiles ~/.git, a stray
// /tmp/.atreides of one's own) make that directory the root of what lies
// below it: every project there without a .atreides of its own yet would
// share its state, and the guard would count the whole home or temp
// directory as the project. Started in such a directory, it is the root.
func Root(hint, start string) string {
	if hint != "" {
		return filepath.Clean(hint)
	}
	if start == "" {
		start, _ = os.Getwd()
	}
	start = filepath.Clean(start)
	shared := sharedDirs()
	marks := func(ok func(string) bool) func(string) bool {
		return func(path string) bool {
			dir := filepath.Dir(path)
			return ok(path) && (dir == start || !shared[dir])
		}
	}
	if dir, ok := findUp(start, DirName, marks(ownDir)); ok {
		return dir
	}
	if dir, ok := findUp(start, ".git", marks(exists)); ok {
		return dir
	}
	return start
}

// sharedDirs are the directories whose markers count only for themselves:
// the home directory and the temp directories.
func sharedDirs() map[string]bool {
	dirs := map[string]bool{"/tmp": true, "/var/tmp": true, filepath.Clean(os.TempDir()): true}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		dirs[filepath.Clean(home)] = true
	}
	return dirs
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
