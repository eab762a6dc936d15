package session

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

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

// maxImportScan bounds how much of an instruction file is searched for an
// import of the rules file: imports sit near the top.
const maxImportScan = 64 << 10

// hostLoads reports whether the host puts the rules file (project-relative,
// e.g. AGENTS.md) into its agent's context by itself: it is one of the
// host's own instruction files, or one of them imports it
// ("@AGENTS.md", the import Claude Code, Gemini CLI and Qwen Code read in
// their instruction files). Read only at a session start.
func hostLoads(f *event.HostFacts, root, rules string) bool {
	rules = filepath.ToSlash(filepath.Clean(rules))
	if slices.Contains(f.Instructions, rules) {
		return true
	}
	for _, own := range f.Instructions {
		if imports(root, filepath.FromSlash(own), rules) {
			return true
		}
	}
	return false
}

// imports reports whether the instruction file rel below root imports
// rules. The file is the repository's, so it is opened as the rules file
// is (openRules): a FIFO or device there must not hold the session start,
// nor a link send the read out of the project.
func imports(root, rel, rules string) bool {
	file, err := openRules(root, rel)
	if err != nil {
		return false
	}
	defer file.Close()
	text, err := io.ReadAll(io.LimitReader(file, maxImportScan))
	if err != nil {
		return false
	}
	for _, w := range strings.Fields(string(text)) {
		if w == "@"+rules || w == "@./"+rules {
			return true
		}
	}
	return false
}
