package outputs

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Cut is a head of an output that fits a budget.
type Cut struct {
	// Kept is the start of the output: its first whole lines, or, when
	// not even the first line fits, the start of that line (Partial).
	Kept    string
	Partial bool
	// KeptLines, Lines and Bytes count the kept lines and the whole
	// output's lines and bytes (a last line without a newline counts).
	KeptLines, Lines, Bytes int
}

// CutHead keeps the first whole lines of s that fit in budget bytes. A
// first line longer than the budget is cut at a rune boundary rather than
// leave the agent nothing.
func CutHead(s string, budget int) Cut {
	c := Cut{Bytes: len(s), Lines: countLines(s)}
	if len(s) <= budget {
		c.Kept, c.KeptLines = s, c.Lines
		return c
	}
	budget = max(budget, 0)
	if i := strings.LastIndexByte(s[:budget], '\n'); i >= 0 {
		c.Kept = s[:i+1]
		c.KeptLines = strings.Count(c.Kept, "\n")
		return c
	}
	n := budget
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	c.Kept, c.Partial = s[:n], true
	return c
}

func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && s[len(s)-1] != '\n' {
		n++
	}
	return n
}

// Note is what follows the kept part: what was removed and where the whole
// output is.
func (c Cut) Note(path string) string {
	removed := fmt.Sprintf("%d of %d lines (%d of %d bytes)", c.Lines-c.KeptLines, c.Lines, c.Bytes-len(c.Kept), c.Bytes)
	shown := fmt.Sprintf("the first %d lines are shown", c.KeptLines)
	if c.Partial {
		removed = fmt.Sprintf("%d of %d bytes", c.Bytes-len(c.Kept), c.Bytes)
		shown = "the first line is shown cut short"
	}
	return fmt.Sprintf("[atreides: output cut to fit the context: %s; %s removed. The output before this cut is in %s: read on with Read (offset/limit) or search it with grep.]", shown, removed, path)
}

// Text is the kept part followed by the note after a blank line.
func (c Cut) Text(path string) string {
	switch {
	case c.Kept == "":
		return c.Note(path)
	case strings.HasSuffix(c.Kept, "\n"):
		return c.Kept + "\n" + c.Note(path)
	}
	return c.Kept + "\n\n" + c.Note(path)
}
