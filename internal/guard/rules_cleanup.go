package guard

import (
	"path"
	"strings"

	"github.com/atreides-dev/atreides/internal/secrets"
	"github.com/atreides-dev/atreides/internal/shell"
)

// Routine operations that look like secret reads or bulk deletes but are
// not: creating a secret file from its committed template, and find-based
// clean-ups of build and cache artefacts inside the project.

// templateSources: a copy command whose every source is a template
// (.env.example, *.sample, *.dist ...) and whose destination is the last
// operand; the template is not a secret, so nothing secret is read.
func templateSources(c *Cmd) bool {
	if c == nil || !oneOf(c.Name, "cp|install|ditto|gcp") {
		return false
	}
	p := c.Pos()
	if len(p) < 2 {
		return false
	}
	for _, w := range p[:len(p)-1] {
		if w.Dyn || w.Glob || !secrets.PublicOrTemplate(w.Text) || strings.HasSuffix(w.Text, ".pub") {
			return false
		}
	}
	return true
}

// templateCopy: c copies templates onto dest, and does not overwrite an
// existing file there (the destination does not exist as far as the
// request's resolver can tell, or the copy is no-clobber). Overwriting a
// real secret is still secret.write.
func (a pathJudge) templateCopy(c *Cmd, dest string) bool {
	if !templateSources(c) {
		return false
	}
	if last, ok := a.canon(c.Pos()[len(c.Pos())-1].Text, c.Scope); !ok || (last != dest && path.Dir(dest) != last) {
		return false
	}
	if c.Has("-n", "--no-clobber") {
		return true
	}
	if v, ok := c.Flag("--update"); ok && v == "none" {
		return true
	}
	if a.req.Resolve == nil {
		return true
	}
	_, err := a.req.Resolve(dest)
	return err != nil
}

// publicKeyRead: a shell command names a public key (*.pub), also inside
// ~/.ssh; a symlink named *.pub that resolves to another file is judged by
// its target. The file tools keep the secret checker's verdict, which
// protects ~/.ssh as a whole (see docs/guard-policy.md).
func (a pathJudge) publicKeyRead(s string, sc *shell.Scope) bool {
	if !isPubName(s) {
		return false
	}
	p, ok := a.canon(s, sc)
	return !ok || isPubName(p)
}

func isPubName(s string) bool {
	b := s[strings.LastIndexByte(s, '/')+1:]
	return len(b) > len(".pub") && strings.EqualFold(b[len(b)-len(".pub"):], ".pub")
}

// cleanupNames are build outputs and caches that are regenerated on
// demand; find -name/-path filters naming them (or *.<ext> patterns)
// select a clean-up, not the project.
var cleanupNames = &lazy[map[string]bool]{src: func() map[string]bool {
	return map[string]bool{
		"__pycache__": true, ".pytest_cache": true, ".mypy_cache": true, ".ruff_cache": true, ".cache": true,
		".tox": true, ".nox": true, ".hypothesis": true, ".ipynb_checkpoints": true, ".eggs": true, "node_modules": true,
		".next": true, ".nuxt": true, ".turbo": true, ".parcel-cache": true, ".nyc_output": true, "coverage": true,
		".coverage": true, "htmlcov": true, "dist": true, "build": true, "target": true, ".gradle": true,
		".DS_Store": true, "Thumbs.db": true, ".sass-cache": true, ".angular": true, ".svelte-kit": true, ".vite": true,
		"tmp": true, ".terraform": true, "obj": true, ".dart_tool": true, ".build": true, "DerivedData": true,
	}
}}

// junkExts are extensions of regenerated or leftover files: bytecode,
// objects, editor swap files, backups and merge leftovers. Content types
// (*.txt, *.log, *.json) are not junk: a find deleting them asks.
var junkExts = &lazy[map[string]bool]{src: func() map[string]bool {
	return map[string]bool{
		"pyc": true, "pyo": true, "bak": true, "orig": true, "rej": true, "tmp": true, "temp": true, "swp": true,
		"swo": true, "swn": true, "o": true, "obj": true, "class": true, "d": true, "gcda": true, "gcno": true,
		"gcov": true, "tsbuildinfo": true, "egg-info": true, "old": true, "retry": true, "pytest_cache": true,
	}
}}

// findCleanup: the find expression selects files by name or path patterns
// that are all clean-up patterns (a known cache or build directory, or
// *.<ext> such as *.pyc, *.bak, *.orig), with no negation or alternative
// that widens it to everything. Such a find deleting inside the project or
// a temp dir is a routine clean-up.
func findCleanup(expr []shell.Word) bool {
	// Every alternative (-o, -or, ",") must carry a clean-up filter.
	named, branchNamed := false, false
	for i := 0; i < len(expr); i++ {
		w := expr[i]
		if w.Dyn {
			return false
		}
		switch s := w.Text; s {
		case "!", "-not", "-regex", "-iregex", "-lname", "-ilname", "-wholename", "-iwholename":
			return false
		case "-o", "-or", ",":
			if !branchNamed {
				return false
			}
			branchNamed = false
		case "-name", "-iname", "-path", "-ipath":
			if i+1 >= len(expr) || expr[i+1].Dyn || !cleanupPattern(expr[i+1].Text, s == "-path" || s == "-ipath") {
				return false
			}
			named, branchNamed = true, true
			i++
		case "-exec", "-execdir", "-ok", "-okdir":
			for i++; i < len(expr) && expr[i].Text != ";" && expr[i].Text != "+"; i++ {
			}
		}
	}
	return named && branchNamed
}

// cleanupPattern judges one -name (or -path) pattern.
func cleanupPattern(pat string, isPath bool) bool {
	if isPath {
		for _, part := range strings.Split(pat, "/") {
			if cleanupNames.get()[part] {
				return true
			}
		}
		base := pat[strings.LastIndexByte(pat, '/')+1:]
		return extPattern(base)
	}
	return cleanupNames.get()[pat] || extPattern(pat) || strings.HasSuffix(pat, "~") && len(pat) > 1 && !shell.HasGlob(pat[:len(pat)-1]) || pat == "*~"
}

// extPattern: *.ext (also *.ext~) for a junk extension.
func extPattern(pat string) bool {
	ext, ok := strings.CutPrefix(pat, "*.")
	return ok && junkExts.get()[strings.ToLower(strings.TrimSuffix(ext, "~"))]
}
