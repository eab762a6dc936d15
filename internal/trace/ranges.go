package trace

import "strings"

// Lines splits content into lines (LF-normalized), each without its
// terminator.
func Lines(content []byte) []string {
	s := strings.ReplaceAll(string(content), "\r\n", "\n")
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// ChangedRange compares before and after (whole file contents) and returns
// the span of lines in after that differ, hashed, and the number of lines
// removed when nothing replaced them. before == nil means unknown: the
// whole file is the range.
func ChangedRange(before, after []byte, beforeKnown bool) (r *Range, deleted int) {
	a := Lines(after)
	start, end := 0, len(a) // [start, end) in a
	if beforeKnown {
		b := Lines(before)
		for start < len(a) && start < len(b) && a[start] == b[start] {
			start++
		}
		ea, eb := len(a), len(b)
		for ea > start && eb > start && a[ea-1] == b[eb-1] {
			ea--
			eb--
		}
		end = ea
		if end == start {
			return nil, eb - start
		}
	}
	if end <= start {
		return nil, 0
	}
	var sb strings.Builder
	for _, l := range a[start:end] {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	return &Range{StartLine: start + 1, EndLine: end, ContentHash: Sum([]byte(sb.String()))}, 0
}
