package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/atreides-dev/atreides/internal/confined"
)

// maxRulesFile bounds what is read of a rules file; a longer AGENTS.md is
// reported as a problem rather than read into every session.
const maxRulesFile = 256 << 10

// DefaultRules are injected when the project has no usable rules file:
// three lines, so that they fit the session start's budget.
const DefaultRules = `- Read before you edit; keep each change small and on the task.
- Run the relevant tests, build and linters before reporting done.
- No secrets in commits; no destructive commands without the user's consent.`

// loadRules returns the checked rules file, from the cache when the file's
// modification time and size (and the check's settings) are unchanged. It
// returns a new cache value when it had to look at the file; nil when the
// cache was still good. The file is opened once and everything (the cache
// check, the checks, the text) comes from that one descriptor, so a file
// replaced between looking and reading cannot be cached under the other's
// size and time.
func loadRules(root string, cache *RulesCache, o Options) (*RulesCache, *RulesCache) {
	path := filepath.Join(root, o.RulesFile)
	key := fmt.Sprintf("%d|%s", o.RulesBudget, strings.Join(o.RulesRequired, ","))
	problem := func(msg string) (*RulesCache, *RulesCache) {
		c := &RulesCache{Path: path, Opts: key, Problems: []string{msg}}
		return c, changed(cache, c)
	}
	f, err := openRules(root, o.RulesFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c := &RulesCache{Path: path, Opts: key, Missing: true, Problems: []string{o.RulesFile + " not found at the project root"}}
		return c, changed(cache, c)
	case errors.Is(err, confined.ErrRefused):
		return problem(o.RulesFile + " is not a regular file of the project (a link out of it, a pipe or a device)")
	case err != nil:
		return problem("cannot open " + o.RulesFile + ": " + err.Error())
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return problem("cannot stat " + o.RulesFile + ": " + err.Error())
	}
	if cache != nil && cache.Path == path && cache.Opts == key && cache.Size == fi.Size() && cache.ModTime.Equal(fi.ModTime()) {
		return cache, nil
	}
	c := &RulesCache{Path: path, Opts: key, ModTime: fi.ModTime(), Size: fi.Size()}
	b, err := io.ReadAll(io.LimitReader(f, maxRulesFile+1))
	switch {
	case err != nil:
		c.Problems = []string{"cannot read " + o.RulesFile + ": " + err.Error()}
	case len(b) > maxRulesFile:
		c.Problems = []string{fmt.Sprintf("%s is %d KiB, more than the %d KiB atreides reads", o.RulesFile, max(fi.Size(), int64(len(b)))>>10, maxRulesFile>>10)}
	default:
		c.Problems = checkRules(b, o.RulesRequired)
		if len(c.Problems) == 0 {
			c.Text = fitSections(strings.TrimSpace(string(b)), o.RulesBudget)
		}
	}
	return c, c
}

// openRules opens the rules file below the project root without following
// links out of the project: its text goes into the model's context, so a
// repository whose AGENTS.md links to ~/.ssh/id_ed25519 must not send the
// key along. A link to another file of the project (AGENTS.md ->
// CLAUDE.md is common) is read at its target, itself opened confined.
func openRules(root, rel string) (*os.File, error) {
	f, err := confined.OpenFile(root, rel, os.O_RDONLY, 0)
	if !errors.Is(err, confined.ErrRefused) {
		return f, err
	}
	target, terr := filepath.EvalSymlinks(filepath.Join(root, rel))
	realRoot, rerr := filepath.EvalSymlinks(root)
	if terr != nil || rerr != nil {
		return nil, err
	}
	inner, ok := strings.CutPrefix(target, realRoot+string(filepath.Separator))
	if !ok {
		return nil, err
	}
	return confined.OpenFile(realRoot, inner, os.O_RDONLY, 0)
}

func changed(old, c *RulesCache) *RulesCache {
	if old != nil && old.Path == c.Path && old.Opts == c.Opts && old.ModTime.IsZero() && slicesEqual(old.Problems, c.Problems) {
		return nil
	}
	return c
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkRules checks that a rules file is readable markdown with the
// required sections: UTF-8 text, no NUL bytes, not empty, at least one
// heading, and every required heading present (case-insensitive).
func checkRules(b []byte, required []string) []string {
	var problems []string
	switch {
	case len(bytes.TrimSpace(b)) == 0:
		return []string{"the file is empty"}
	case bytes.IndexByte(b, 0) >= 0:
		return []string{"the file contains NUL bytes (binary?)"}
	case !utf8.Valid(b):
		return []string{"the file is not valid UTF-8"}
	}
	headings := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if h, ok := heading(l); ok {
			headings[strings.ToLower(h)] = true
		}
	}
	if len(headings) == 0 {
		problems = append(problems, "no markdown heading (# Title) found")
	}
	for _, r := range required {
		if !headings[strings.ToLower(strings.TrimSpace(r))] {
			problems = append(problems, fmt.Sprintf("required section %q is missing", r))
		}
	}
	return problems
}

// heading returns the text of an ATX heading line.
func heading(line string) (string, bool) {
	l := strings.TrimRight(line, " \t\r")
	n := 0
	for n < len(l) && n < 6 && l[n] == '#' {
		n++
	}
	if n == 0 || n >= len(l) || l[n] != ' ' {
		return "", false
	}
	return strings.TrimSpace(strings.TrimRight(l[n:], "# ")), true
}

// fitSections keeps whole sections (a heading and what follows up to the
// next heading, ignoring headings inside code fences) in order while they
// fit in max bytes, and says how many were left out. Only a first section
// that alone is too long is cut, at a paragraph break outside a fence.
func fitSections(text string, max int) string {
	if len(text) <= max {
		return text
	}
	secs := sections(text)
	const note = "\n\n[atreides: %d section(s) of the rules file left out to fit; read the file for the rest]"
	room := max - 100 // the longer of the two notes
	var b strings.Builder
	kept, cut := 0, false
	for _, s := range secs {
		sep := 0
		if b.Len() > 0 {
			sep = 1
		}
		if b.Len()+sep+len(s) > room {
			if kept == 0 {
				b.WriteString(cutParagraph(s, room))
				kept, cut = kept+1, true
				continue
			}
			break
		}
		if sep > 0 {
			b.WriteString("\n")
		}
		b.WriteString(s)
		kept++
	}
	switch left := len(secs) - kept; {
	case left > 0:
		fmt.Fprintf(&b, note, left)
	case cut:
		b.WriteString("\n\n[atreides: the first section of the rules file was cut to fit; read the file for the rest]")
	}
	return b.String()
}

func sections(text string) []string {
	var out []string
	var cur strings.Builder
	fenced := false
	for _, l := range strings.SplitAfter(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
		}
		if _, ok := heading(l); ok && !fenced && cur.Len() > 0 {
			out = append(out, strings.TrimRight(cur.String(), "\n"))
			cur.Reset()
		}
		cur.WriteString(l)
	}
	if cur.Len() > 0 {
		out = append(out, strings.TrimRight(cur.String(), "\n"))
	}
	return out
}

// cutParagraph cuts s to at most n bytes at the last blank line that is
// not inside a code fence.
func cutParagraph(s string, n int) string {
	if len(s) <= n {
		return s
	}
	best, fenced, off := 0, false, 0
	for _, l := range strings.SplitAfter(s, "\n") {
		if off+len(l) > n {
			break
		}
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
		}
		off += len(l)
		if t == "" && !fenced {
			best = off
		}
	}
	if best == 0 {
		// No paragraph break: the heading line alone is structure enough.
		if i := strings.IndexByte(s, '\n'); i > 0 && i <= n {
			return s[:i]
		}
		return ""
	}
	return strings.TrimRight(s[:best], "\n")
}
