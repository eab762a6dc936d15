package comments

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
)

// Report is what the check found in the lines one write or edit added to
// one file.
type Report struct {
	Path string
	// Lines is how many added lines hold more than blanks and brackets:
	// a closing brace is no line a comment could explain.
	Lines int
	// Noise are the added lines that are only a comment, other than
	// documentation, directives, license headers and test-step markers.
	Noise []Line
	// Memos are the added lines whose comment reads like a note about the
	// change rather than about the code.
	Memos []Line
}

// Line is one added line the check reports.
type Line struct {
	// Index is the line's index in [event.FileLines.Lines].
	Index int
	Text  string
	// Phrase is the memo phrase found in its comment (memos only).
	Phrase string
}

// Ratio is the share of the added non-blank lines that are noise
// candidates; 0 when nothing was added.
func (r Report) Ratio() float64 {
	if r.Lines == 0 {
		return 0
	}
	return float64(len(r.Noise)) / float64(r.Lines)
}

// Add folds another report on the same file into r (a MultiEdit's edits).
func (r *Report) Add(o Report) {
	r.Lines += o.Lines
	r.Noise = append(r.Noise, o.Noise...)
	r.Memos = append(r.Memos, o.Memos...)
}

// Check reads the lines a write or edit put into a file, in the syntax its
// extension names, and reports the comments among the added ones. A file
// of a kind it does not know (prose, data) gives an empty report.
func Check(f event.FileLines) Report {
	r := Report{Path: f.Path}
	sx := syntaxOf(f.Path)
	if sx == nil {
		return r
	}
	infos := lex(sx, f.Lines)
	kinds := classify(sx, f, infos)
	for i, l := range f.Lines {
		if !f.IsNew(i) || strings.Trim(l, " \t\r{}()[];,") == "" {
			continue
		}
		r.Lines++
		if kinds[i] == noise {
			r.Noise = append(r.Noise, Line{Index: i, Text: l})
		}
		if kinds[i] == noise || kinds[i] == doc || kinds[i] == trailing {
			if p := memoPhrase(infos[i].text); p != "" {
				r.Memos = append(r.Memos, Line{Index: i, Text: l, Phrase: p})
			}
		}
	}
	return r
}

// What a line is, for the check.
type kind uint8

const (
	plain     kind = iota // code, a string, or blank
	noise                 // only a comment, and none of the kinds below
	trailing              // code with a comment after it
	doc                   // documentation: a doc comment or docstring
	directive             // shebang, linter or compiler directive
	license               // part of a license header
	marker                // a test-step marker (given/when/then, arrange/act/assert)
)

// classify says what each line is. Comments are read in runs of
// consecutive comment lines: a run with a license notice is a license
// header, and a run right above a declaration documents it.
func classify(sx *syntax, f event.FileLines, infos []lineInfo) []kind {
	kinds := make([]kind, len(infos))
	test := isTestFile(f.Path)
	for i, li := range infos {
		line := strings.TrimSpace(f.Lines[i])
		switch {
		case strings.HasPrefix(line, "#!"):
			kinds[i] = directive
		case !li.comment && li.doc:
			kinds[i] = doc
		case !li.comment:
			kinds[i] = plain
		case isDirective(li.text):
			kinds[i] = directive
		case li.code:
			kinds[i] = trailing
		case isMarker(li.text, test):
			kinds[i] = marker
		case li.doc:
			kinds[i] = doc
		default:
			kinds[i] = noise
		}
	}
	if f.Whole {
		header(kinds, f.Lines)
	}
	for start := 0; start < len(kinds); {
		end := start
		for end < len(kinds) && commentOnly(kinds[end]) {
			end++
		}
		if end == start {
			start++
			continue
		}
		markRun(sx, f.Lines, infos, kinds, start, end)
		start = end
	}
	return kinds
}

// header marks the comments that open a whole file, before its first line
// of code, as documentation: they say what the file is (a script's usage,
// a module's purpose).
func header(kinds []kind, lines []string) {
	for i, k := range kinds {
		switch {
		case k == noise:
			kinds[i] = doc
		case (k == plain || k == trailing) && strings.TrimSpace(lines[i]) != "":
			return
		}
	}
}

func commentOnly(k kind) bool {
	return k == noise || k == doc || k == directive || k == marker || k == license
}

// markRun marks the comment run kinds[start:end] as a license header or as
// documentation of the declaration right below it.
func markRun(sx *syntax, lines []string, infos []lineInfo, kinds []kind, start, end int) {
	for i := start; i < end; i++ {
		if isLicense(infos[i].text) {
			for j := start; j < end; j++ {
				kinds[j] = license
			}
			return
		}
	}
	if end >= len(lines) || !infos[end].code || !documents(sx, lines[start], lines[end]) {
		return
	}
	for j := start; j < end; j++ {
		if kinds[j] == noise {
			kinds[j] = doc
		}
	}
}

// documents reports whether a comment run starting with the line first,
// right above the code line, documents it: the line declares something,
// or it begins with the word the comment begins with, in the same case
// (Go's "// Name does ..." above a field or constant; "// Return the
// result" above "return r" is narration).
func documents(sx *syntax, first, code string) bool {
	if sx.decl != nil && sx.decl(code) {
		return true
	}
	cw, lw := firstWords(strings.TrimLeft(first, " \t/#*-;!<{["), 1), firstWords(code, 1)
	return len(cw) == 1 && len(lw) == 1 && cw[0] == lw[0]
}

// isTestFile reports whether the path names a test, where given/when/then
// comments mark the steps.
func isTestFile(p string) bool {
	p = strings.ToLower(p)
	base := p[strings.LastIndexAny(p, `/\`)+1:]
	return strings.Contains(base, "_test.") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.HasPrefix(base, "test_") || strings.Contains(p, "/tests/") || strings.Contains(p, "/test/") || strings.Contains(p, "/spec/")
}
