package rulefiles

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/event"
)

// Options are the handler's settings (configuration: context.rules, and
// session.rules.file for the file name).
type Options struct {
	Enabled bool
	// File is the rules file looked for in each directory; the root's is the
	// session context's and never injected here.
	File string
	// Readme adds each directory's README.md, the root's included.
	Readme bool
	// Budget is the most bytes of rules one event registers.
	Budget int
	// Dirs are the project-relative directories of conditional rules.
	Dirs []string
}

// FromConfig maps context.rules; the file name is the session's rules
// file, the one the root's rules come from. What the host reads itself
// comes with each event ([event.HostFacts.Rules], Instructions).
func FromConfig(c *config.Config) Options {
	r := &c.Context.Rules
	return Options{Enabled: r.Enabled, File: c.Session.Rules.File, Readme: r.Readme, Budget: r.Budget, Dirs: r.Dirs}
}

// readme is the optional per-directory file.
const readme = "README.md"

// skip is what the host puts into its agent's context by itself, so that
// atreides does not put it there again.
type skip struct {
	// nested: the rules file of every directory below the root is loaded
	// by the host when a file there is read.
	nested bool
	// upToCwd: the rules files from the root down to the working
	// directory are loaded at the host's start.
	upToCwd bool
	// dirs are conditional rules directories the host reads itself.
	dirs []string
}

// hostLoads says what the host loads itself ([event.HostFacts.Rules],
// checked against the pinned versions, test/e2e/hosts); only the file
// named AGENTS.md is meant: another rules file name is nothing the hosts
// know.
func (o Options) hostLoads(host *event.HostFacts, root string) skip {
	if o.File != "AGENTS.md" {
		return skip{dirs: host.Rules.Dirs}
	}
	r := host.Rules
	nested := r.Nested && !(r.NestedUnlessInstructions && hasInstructions(host, root))
	return skip{dirs: r.Dirs, nested: nested, upToCwd: r.UpToCwd}
}

// hasInstructions reports whether one of the host's own instruction files
// is at the root.
func hasInstructions(host *event.HostFacts, root string) bool {
	for _, name := range host.Instructions {
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// isClaudeFile reports whether name is one of Claude Code's own
// instruction files, which are never injected (Claude Code loads them).
func isClaudeFile(name string) bool {
	return strings.EqualFold(name, "CLAUDE.md") || strings.EqualFold(name, "CLAUDE.local.md")
}
