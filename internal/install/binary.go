package install

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

func isAtreidesName(base string) bool {
	return base == "atreides" || strings.EqualFold(base, "atreides.exe")
}

// CheckExecutable returns "" when path is an executable regular file, or
// what is wrong with it.
func CheckExecutable(path string) string {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case err != nil:
		return "cannot be checked: " + err.Error()
	case !fi.Mode().IsRegular():
		return "is not a regular file"
	case fi.Mode().Perm()&0o111 == 0:
		return "is not executable"
	}
	return ""
}

// resolveBinary works out which file a handler of ours will run. Relative
// paths resolve against the project directory (hooks run there) when the
// file is in a project's configDir (".claude"); bare names go through PATH.
func resolveBinary(h *Node, settingsPath, configDir string) *Binary {
	cmd, _ := h.Get("command").Str()
	words, dynamic, _ := shell.Argv(cmd)
	word := ""
	if len(words) > 0 {
		word = words[0]
	}
	b := &Binary{Command: word}
	switch {
	case dynamic:
		b.Problem = "depends on shell expansion; cannot be checked"
		return b
	case filepath.IsAbs(word):
		b.Resolved = word
	case !strings.ContainsRune(word, '/'):
		p, err := exec.LookPath(word)
		if err != nil {
			b.Problem = "not found in PATH"
			return b
		}
		b.Resolved = p
	default:
		dir := filepath.Dir(settingsPath)
		if filepath.Base(dir) != configDir {
			b.Problem = "relative path; cannot tell which directory it is relative to"
			return b
		}
		b.Resolved = filepath.Join(filepath.Dir(dir), word)
	}
	b.Problem = CheckExecutable(b.Resolved)
	b.Executable = b.Problem == ""
	return b
}
