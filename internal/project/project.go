package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DirName is the per-project directory atreides owns.
const DirName = ".atreides"

// Root finds the project a start directory belongs to, "" when it
// belongs to none. Install, the hooks, doctor and every command find it
// here, so that they agree:
//
//   - a hint (the host's project directory, such as CLAUDE_PROJECT_DIR)
//     wins when it is one a project can have;
//   - else the repository: the nearest ancestor with .git (a directory,
//     or a file in a worktree or submodule);
//   - else, outside any repository, the nearest ancestor with a .atreides
//     directory of the user's own (not a link, not another user's: anyone
//     can create /tmp/.atreides).
//
// A repository wins over any .atreides above or below its root, so a
// .atreides in a subdirectory of a repository never makes a root (its
// config is ignored, see [StrayConfig]) and neither does a stray one in an
// ancestor. No root is ever /, the home directory itself or a temp
// directory itself: a marker there (a dotfiles ~/.git, a ~/.atreides left
// by a command run in ~, /tmp/.atreides) would make every project below it
// one, whose state and config.yaml the guard would then count as the
// project's. An event outside any project gets the guard on the built-in
// and user policy and keeps no state.
func Root(hint, start string) string {
	shared := sharedDirs()
	if h := filepath.Clean(hint); hint != "" && eligible(shared, h) {
		return h
	}
	if start == "" {
		start, _ = os.Getwd()
	}
	if !filepath.IsAbs(start) {
		// A host that sent a relative directory means the hook's own.
		wd, err := os.Getwd()
		if err != nil {
			return ""
		}
		start = filepath.Join(wd, start)
	}
	start = filepath.Clean(start)
	marks := func(ok func(string) bool) func(string) bool {
		return func(path string) bool { return eligible(shared, filepath.Dir(path)) && ok(path) }
	}
	if dir, ok := findUp(start, ".git", marks(exists)); ok {
		return dir
	}
	if dir, ok := findUp(start, DirName, marks(ownDir)); ok {
		return dir
	}
	return ""
}

// Eligible reports whether dir may be a project root: not /, the home
// directory or a temp directory itself. A command run from a terminal
// outside any project works in its directory when it is eligible.
func Eligible(dir string) bool { return eligible(sharedDirs(), filepath.Clean(dir)) }

// eligible is [Eligible] of a clean dir, given the shared directories.
func eligible(shared map[string]bool, dir string) bool {
	return filepath.IsAbs(dir) && dir != "/" && !shared[dir]
}

// StrayConfig is the nearest .atreides/config.yaml between start and the
// project root (the root's own excluded): a config that does not count,
// for doctor and the session start to say so. "" when there is none.
func StrayConfig(root, start string) string {
	if root == "" || start == "" {
		return ""
	}
	rel, err := filepath.Rel(root, start)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	for dir := filepath.Clean(start); dir != root && dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if f := filepath.Join(dir, DirName, "config.yaml"); exists(f) {
			return f
		}
	}
	return ""
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

// StateDir is the .atreides directory of a project root; "" for none (an
// event outside any project), never a relative ".atreides".
func StateDir(root string) string {
	if root == "" {
		return ""
	}
	return filepath.Join(root, DirName)
}

// ErrNoProject is a command's error outside any project, in a directory
// that cannot be one.
var ErrNoProject = errors.New("not in a project: run atreides inside a repository or a directory of your own (not /, your home directory or a temp directory itself)")

// ForCommand is the project of a command run in wd: its [Root], or, when
// wd belongs to none, wd itself if it may be a root (the user runs
// `atreides install` in a directory that is no repository).
func ForCommand(wd string) (string, error) {
	if root := Root("", wd); root != "" {
		return root, nil
	}
	if !Eligible(wd) {
		return "", fmt.Errorf("%s: %w", wd, ErrNoProject)
	}
	return filepath.Clean(wd), nil
}
