package consensus

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
)

// lineSlack is how far apart two reviewers' line ranges may be and
// still name the same place: models cite the line of a statement, of its
// first argument or of the block around it, a line or two apart.
const lineSlack = 2

// similarTitles is the share of the shorter title's words the other
// must contain for two titles to say the same thing.
const similarTitles = 0.6

// Merge groups the reports' findings that are the same (same file,
// overlapping lines, similar titles) and ranks the groups: more reviewers
// first, then more severe, then by place. A reviewer that repeats one
// finding counts once.
func Merge(reports []Report) []Merged {
	var out []Merged
	var words [][]string
	for _, r := range reports {
		for _, f := range r.Findings {
			w := titleWords(f.Title)
			if i := matchAny(out, words, &f, w); i >= 0 {
				out[i] = join(out[i], r.Reviewer, f)
				continue
			}
			out = append(out, Merged{Finding: f, Reviewers: []string{r.Reviewer}, Agreement: 1})
			words = append(words, w)
		}
	}
	slices.SortStableFunc(out, compare)
	return out
}

// matchAny is the first group the finding belongs to, -1 for none.
func matchAny(out []Merged, words [][]string, f *Finding, w []string) int {
	for i := range out {
		if same(&out[i].Finding, f) && similar(words[i], w) {
			return i
		}
	}
	return -1
}

// join adds a reviewer's finding to its group.
func join(m Merged, reviewer string, f Finding) Merged {
	if f.Severity.Rank() > m.Severity.Rank() {
		m.Severity = f.Severity
	}
	if f.Line > 0 && (m.Line == 0 || f.Line < m.Line) {
		m.Line = f.Line
	}
	m.EndLine = max(m.EndLine, f.EndLine, m.Line)
	if f.Detail != "" && f.Detail != m.Detail && !slices.Contains(m.Details, f.Detail) {
		m.Details = append(m.Details, f.Detail)
	}
	if !slices.Contains(m.Reviewers, reviewer) {
		m.Reviewers = append(m.Reviewers, reviewer)
		m.Agreement = len(m.Reviewers)
	}
	return m
}

// same reports whether two findings are in the same place: the same file
// and line ranges that overlap (within lineSlack). A finding without a
// line is about the whole file and overlaps any line of it.
func same(a, b *Finding) bool {
	if a.File != b.File {
		return false
	}
	if a.Line == 0 || b.Line == 0 {
		return true
	}
	return a.Line <= b.EndLine+lineSlack && b.Line <= a.EndLine+lineSlack
}

// compare ranks merged findings: agreement, severity, file, line, title.
func compare(a, b Merged) int {
	return cmp.Or(
		cmp.Compare(b.Agreement, a.Agreement),
		cmp.Compare(b.Severity.Rank(), a.Severity.Rank()),
		strings.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		strings.Compare(a.Title, b.Title),
	)
}

// similar reports whether two titles say the same thing: most of the
// shorter one's words are in the other. Titles with no words to compare
// match only each other's emptiness.
func similar(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	shared := 0
	for _, w := range a {
		if slices.Contains(b, w) {
			shared++
		}
	}
	return float64(shared) >= similarTitles*float64(len(a))
}

// titleWords are a title's words that carry meaning: lowercased, a
// plural's s dropped, short and common words left out, each once.
func titleWords(title string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if len(w) < 3 || stopWord(w) {
			continue
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		if slices.Contains(out, w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func stopWord(w string) bool {
	switch w {
	case "the", "and", "for", "not", "with", "when", "can", "may", "are", "this", "that", "from", "into", "its", "has", "was", "but", "any", "all", "out", "which", "without", "should", "could", "would", "there", "here", "one", "use", "used", "uses":
		return true
	}
	return false
}
