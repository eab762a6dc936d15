package rulefiles

import (
	"os"

	"github.com/atreides-dev/atreides/internal/config"
	"path/filepath"
	"strings"
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
	// Instructions returns the files a host reads itself at the project
	// root (internal/hosts); nil knows none.
	Instructions func(host string) []string
}

// FromConfig maps context.rules; the file name is the session's rules
// file, the one the root's rules come from. The caller adds Instructions.
func FromConfig(c *config.Config) Options {
	r := &c.Context.Rules
	return Options{Enabled: r.Enabled, File: c.Session.Rules.File, Readme: r.Readme, Budget: r.Budget, Dirs: r.Dirs}
}

// readme is the optional per-directory file.
const readme = "README.md"

// claudeRules is the conditional rules directory Claude Code reads itself.
const claudeRules = ".claude/rules"

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

// hostLoads says what the host loads itself, checked against the pinned
// versions (test/e2e/hosts):
//   - Claude Code 2.1.330 reads .claude/rules (paths: front matter
//     included) itself, and its default instructionFiles mode
//     (claude-md-or-agents-md) attaches every AGENTS.md between the root
//     and a file it reads, but only in a project without CLAUDE.md.
//   - OpenCode 1.18.33 attaches the AGENTS.md (or CLAUDE.md, CONTEXT.md) of
//     each directory above a file its read tool opens (Instruction.resolve).
//   - Codex 0.169 reads AGENTS.md from the root down to its working
//     directory at start, none below it.
//   - Gemini CLI 0.61 reads GEMINI.md, not AGENTS.md.
//
// Only the file named AGENTS.md is meant: another rules file name is
// nothing the hosts know.
func (o Options) hostLoads(host, root string) skip {
	var s skip
	agents := o.File == "AGENTS.md"
	switch host {
	case "claude":
		s.dirs = []string{claudeRules}
		s.nested = agents && !o.hasInstructions(host, root)
	case "opencode":
		s.nested = agents
	case "codex":
		s.upToCwd = agents
	}
	return s
}

// hasInstructions reports whether one of the host's own instruction files
// is at the root.
func (o Options) hasInstructions(host, root string) bool {
	if o.Instructions == nil {
		return false
	}
	for _, name := range o.Instructions(host) {
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
