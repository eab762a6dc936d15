package comments

import "strings"

// lineInfo is what the lexer found on one line.
type lineInfo struct {
	code    bool   // code outside comments (a string is code)
	comment bool   // a comment, or part of one, is on the line
	text    string // the comments' text, markers removed, in lower case
	doc     bool   // a documentation comment or a docstring
}

func (li *lineInfo) addComment(s string, doc bool) {
	li.comment = true
	li.doc = li.doc || doc
	if s = strings.TrimSpace(s); s != "" {
		if li.text != "" {
			li.text += " "
		}
		// Every test on comment text ignores case: lowered once here.
		li.text += strings.ToLower(s)
	}
}

// The lexer's states between lines.
const (
	normal = iota
	inBlock
	inString
	inDocstring
	inHeredoc
)

// lexer reads lines of one syntax, carrying block comments, strings that
// span lines and heredocs from one line to the next. It knows just enough
// of each syntax to tell comments from code: what looks like a comment
// inside a string is none.
type lexer struct {
	sx    *syntax
	state int
	close string // what ends the open block, string or heredoc
	raw   bool   // the open string takes no escapes
	doc   bool   // the open block is documentation
	// heredocs waits for the end of the line that opened them; dash
	// heredocs (<<-) may indent their delimiter with tabs.
	heredocs []string
}

// lex reads the lines and says what each holds.
func lex(sx *syntax, lines []string) []lineInfo {
	lx := lexer{sx: sx}
	out := make([]lineInfo, len(lines))
	for i, l := range lines {
		out[i] = lx.line(l)
	}
	return out
}

func (lx *lexer) line(s string) lineInfo {
	var li lineInfo
	if lx.state == inHeredoc {
		if strings.TrimLeft(s, "\t") == lx.close {
			lx.state = normal
			lx.nextHeredoc()
		}
		li.code = true // text of the heredoc: data, no comment
		return li
	}
	if strings.TrimSpace(s) == "" {
		// A blank line inside a comment or docstring keeps it whole, so
		// that a long comment is read as one run.
		switch lx.state {
		case inBlock:
			li.addComment("", lx.doc)
		case inDocstring:
			li.doc = true
		}
		return li
	}
	for i := 0; i < len(s); {
		switch lx.state {
		case inBlock:
			i = lx.inBlock(s, i, &li)
		case inString, inDocstring:
			i = lx.inString(s, i, &li)
		default:
			i = lx.normal(s, i, &li)
		}
	}
	if lx.state == normal {
		lx.nextHeredoc()
	}
	return li
}

// nextHeredoc starts the next heredoc opened on the last line, if any.
func (lx *lexer) nextHeredoc() {
	if len(lx.heredocs) > 0 {
		lx.state, lx.close = inHeredoc, lx.heredocs[0]
		lx.heredocs = lx.heredocs[1:]
	}
}

func (lx *lexer) inBlock(s string, i int, li *lineInfo) int {
	j := strings.Index(s[i:], lx.close)
	if j < 0 {
		li.addComment(s[i:], lx.doc)
		return len(s)
	}
	li.addComment(s[i:i+j], lx.doc)
	lx.state = normal
	return i + j + len(lx.close)
}

func (lx *lexer) inString(s string, i int, li *lineInfo) int {
	if lx.state == inDocstring {
		li.doc = true
	} else {
		li.code = true
	}
	j := closing(s, i, lx.close, lx.raw)
	if j < 0 {
		return len(s)
	}
	lx.state = normal
	return j
}

// closing is the index just past the first q in s from i, skipping
// backslash escapes unless raw; -1 when the line holds none.
func closing(s string, i int, q string, raw bool) int {
	for i < len(s) {
		switch {
		case !raw && s[i] == '\\':
			i += 2
		case strings.HasPrefix(s[i:], q):
			return i + len(q)
		default:
			i++
		}
	}
	return -1
}

func (lx *lexer) normal(s string, i int, li *lineInfo) int {
	sx := lx.sx
	c := s[i]
	if c == ' ' || c == '\t' || c == '\r' {
		return i + 1
	}
	rest := s[i:]
	for _, b := range sx.block {
		if strings.HasPrefix(rest, b[0]) {
			lx.state, lx.close, lx.doc = inBlock, b[1], isDoc(sx, rest) && !strings.HasPrefix(rest, b[0]+b[1])
			return i + len(b[0])
		}
	}
	for _, m := range sx.line {
		if strings.HasPrefix(rest, m) && (!sx.wordStart || i == 0 || strings.IndexByte(" \t;&|()", s[i-1]) >= 0) {
			li.addComment(rest[len(m):], isDoc(sx, rest))
			return len(s)
		}
	}
	if sx.triple {
		if n := pyPrefix(rest); n >= 0 && n+3 <= len(rest) && (rest[n:n+3] == `"""` || rest[n:n+3] == "'''") {
			lx.state, lx.close, lx.raw = inString, rest[n:n+3], false
			if !li.code {
				lx.state = inDocstring // a string that opens a statement documents it
			}
			return lx.inString(s, i+n+3, li)
		}
	}
	if strings.IndexByte(sx.quotes, c) >= 0 || strings.IndexByte(sx.spanning, c) >= 0 {
		raw := strings.IndexByte(sx.raw, c) >= 0
		if j := closing(s, i+1, s[i:i+1], raw); j >= 0 {
			li.code = true
			return j
		}
		if strings.IndexByte(sx.spanning, c) >= 0 {
			lx.state, lx.close, lx.raw = inString, s[i:i+1], raw
			li.code = true
			return len(s)
		}
	}
	if sx.heredoc && strings.HasPrefix(rest, "<<") && !strings.HasPrefix(rest, "<<<") {
		if d, n := heredocWord(rest[2:]); d != "" {
			lx.heredocs = append(lx.heredocs, d)
			li.code = true
			return i + 2 + n
		}
	}
	li.code = true
	return i + 1
}

// isDoc reports whether the comment opening s is documentation.
func isDoc(sx *syntax, s string) bool {
	for _, d := range sx.doc {
		if strings.HasPrefix(s, d) {
			return true
		}
	}
	return false
}

// pyPrefix is the length of a Python string prefix (r, b, u, f, rb, ...)
// at the start of s, 0 for none; -1 when s starts with a word that is no
// prefix.
func pyPrefix(s string) int {
	n := 0
	for n < len(s) && n < 2 && strings.IndexByte("rRbBuUfF", s[n]) >= 0 {
		n++
	}
	if n < len(s) && (s[n] == '"' || s[n] == '\'') {
		return n
	}
	return -1
}

// heredocWord reads a heredoc's delimiter after "<<": an optional "-",
// blanks, and a word that may be quoted. It returns the delimiter and how
// many bytes it read.
func heredocWord(s string) (string, int) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	q := byte(0)
	if i < len(s) && (s[i] == '\'' || s[i] == '"') {
		q = s[i]
		i++
	}
	start := i
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	word := s[start:i]
	if q != 0 && i < len(s) && s[i] == q {
		i++
	}
	return word, i
}
