package prompt

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Word is one word of a prompt's prose, lower-cased.
type Word struct {
	Text string
	// Joined is set when the word directly follows the previous one in
	// the same stretch of prose: no code, path or sentence end between
	// them. Multi-word keywords match only joined words.
	Joined bool
	// End is set on the last word of a sentence (. ! ? or a line end).
	End bool
	// Question is set on the last word of a sentence ending in '?'.
	Question bool
}

// Prose returns the words of text outside code, URLs, paths and other
// non-words, in order.
func Prose(text string) []Word {
	var out []Word
	joined := false
	brk := func() {
		joined = false
	}
	end := func(q bool) {
		if n := len(out); n > 0 && !out[n-1].End {
			out[n-1].End = true
			out[n-1].Question = q
		}
		joined = false
	}
	for _, line := range proseLines(text) {
		for _, chunk := range splitChunks(line) {
			if chunk.code {
				brk()
				continue
			}
			core, lead, trail := trimPunct(chunk.s)
			if lead != "" {
				brk()
			}
			if !isWord(core) {
				brk()
				if sentenceEnd(trail) {
					end(strings.Contains(trail, "?"))
				}
				continue
			}
			out = append(out, Word{Text: strings.ToLower(core), Joined: joined})
			joined = true
			switch {
			case sentenceEnd(trail):
				end(strings.Contains(trail, "?"))
			case trail != "":
				brk()
			}
		}
		end(false) // a line ends a sentence (lists, one-line requests)
	}
	return out
}

// chunk is a whitespace-separated piece of a prose line, or an inline code
// span.
type chunk struct {
	s    string
	code bool
}

// proseLines are the lines of text that are not in a fenced or indented
// code block.
func proseLines(text string) []string {
	var out []string
	fence := ""       // the open fence's marker run, "" outside a fence
	prevBlank := true // indented code starts only after a blank line
	inIndented := false
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if fence != "" {
			if indent < 4 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
			continue
		}
		if indent < 4 {
			if m := fenceMarker(trimmed); m != "" {
				fence = m
				prevBlank, inIndented = false, false
				continue
			}
		}
		blank := strings.TrimSpace(line) == ""
		if !blank && (indent >= 4 || strings.HasPrefix(line, "\t")) && (prevBlank || inIndented) {
			inIndented = true
			continue
		}
		if !blank {
			inIndented = false
		}
		prevBlank = blank
		out = append(out, line)
	}
	return out
}

// fenceMarker is the marker of a code fence opening line (``` or ~~~, three
// or more), or "".
func fenceMarker(s string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(s) && s[n] == c {
			n++
		}
		if n >= 3 {
			return s[:n]
		}
	}
	return ""
}

// splitChunks splits a prose line into whitespace-separated chunks, with
// inline code spans (a run of backticks to the next run of the same
// length) as chunks of their own. A backtick run
// without a closing run of the same length is literal, and makes its chunk
// a non-word.
func splitChunks(line string) []chunk {
	var out []chunk
	start := -1
	flush := func(i int) {
		if start >= 0 && i > start {
			out = append(out, chunk{s: line[start:i]})
		}
		start = -1
	}
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '`':
			n := 1
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			run := line[i : i+n]
			if j := closingRun(line[i+n:], run); j >= 0 {
				flush(i)
				out = append(out, chunk{code: true})
				i += n + j + n
				continue
			}
			if start < 0 {
				start = i
			}
			i += n
		case c == ' ' || c == '\t':
			flush(i)
			i++
		default:
			r, size := utf8.DecodeRuneInString(line[i:])
			if unicode.IsSpace(r) {
				flush(i)
			} else if start < 0 {
				start = i
			}
			i += size
		}
	}
	flush(len(line))
	return out
}

// closingRun is the index in s of a backtick run exactly equal to run, or
// -1.
func closingRun(s, run string) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := 1
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		if n == len(run) {
			return i
		}
		i += n
	}
	return -1
}

// trimPunct cuts the punctuation that may surround a word in prose:
// opening quotes and brackets before, closing ones and sentence marks
// after, and emphasis that wraps the word on both sides (*x*, __x__). A
// leading '-' is not cut ("--ulw" is a flag), nor a one-sided '_' or '*'
// ("ulw_" is a name).
func trimPunct(s string) (core, lead, trail string) {
	i, j := 0, len(s)
	for {
		i0, j0 := i, j
		for i < j && strings.IndexByte(`"'([{`, s[i]) >= 0 {
			i++
		}
		for j > i && strings.IndexByte(`"')]}.,;:!?`, s[j-1]) >= 0 {
			j--
		}
		for _, m := range []string{"**", "__", "*", "_"} {
			if j-i > 2*len(m) && strings.HasPrefix(s[i:j], m) && strings.HasSuffix(s[i:j], m) {
				i, j = i+len(m), j-len(m)
				break
			}
		}
		if i == i0 && j == j0 {
			break
		}
	}
	core, lead, trail = s[i:j], s[:i], s[j:]
	// Curly quotes and the like, as whole runes.
	for {
		r, n := utf8.DecodeRuneInString(core)
		if n == 0 || !strings.ContainsRune("“‘«¿¡", r) {
			break
		}
		core, lead = core[n:], lead+core[:n]
	}
	for {
		r, n := utf8.DecodeLastRuneInString(core)
		if n == 0 || !strings.ContainsRune("”’»…", r) {
			break
		}
		core, trail = core[:len(core)-n], core[len(core)-n:]+trail
	}
	// A possessive ("ultrawork's") keeps its word.
	if k := strings.IndexAny(core, "'’"); k > 0 {
		if rest := core[k:]; rest == "'s" || rest == "’s" {
			core = core[:k]
		}
	}
	return core, lead, trail
}

// isWord reports whether s is letters and digits only (apostrophes inside,
// as in "don't", allowed).
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
		case (r == '\'' || r == '’') && i > 0 && i < len(s)-1:
		default:
			return false
		}
	}
	return true
}

func sentenceEnd(trail string) bool { return strings.ContainsAny(trail, ".!?") }
