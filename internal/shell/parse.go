package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Limits checked before a script is parsed. The shell parser recurses once
// per nested construct and cannot be interrupted: 150 KB of "(" overflows
// its stack, a fatal error no recover catches, and a few hundred KB of
// nested "$(" take seconds. So the text's size and nesting are measured
// first, by a scan that costs one pass, and a script over a limit is never
// parsed: Parse refuses it with a *TooComplex.
//
// The text of a long single-quoted string is one word to the parser and
// cannot nest, whatever it holds: a megabyte program given to python -c
// is parsed with its text blanked (see blankQuotes), so that only the
// shell around it counts towards maxScript and maxOpeners.
const (
	// maxScript bounds the bytes of any script parsed, the text of long
	// single-quoted strings aside: the command, or one derived from it
	// (sh -c, eval, a decoded payload). The largest command in the
	// corpora is about 90 KB; a bigger one is better written to a file
	// with the file tool and run from there.
	maxScript = 128 << 10
	// maxQuotedScript bounds the bytes of a script with its quoted text.
	// Inline programs are scanned at about 20 ms a MiB (at most about
	// 150 ms a MiB for text made to slow the scan down), so this keeps a
	// command well under a second of analysis.
	maxQuotedScript = 4 << 20
	// minBlank is the shortest single-quoted text blanked: shorter
	// strings hold too few nesting tokens to matter.
	minBlank = 64
	// maxNesting bounds how deeply constructs nest as the shell reads
	// them: subshells, groups, substitutions, parameter expansions,
	// quotes, if/while/for/case. Real commands stay under ten.
	maxNesting = 64
	// maxOpeners bounds the tokens that could open a nested construct,
	// counted without regard to quoting. It is the sound backstop of the
	// nesting scan: whatever the scan misreads, the parser cannot recurse
	// deeper than this (at a few KB of stack per level).
	maxOpeners = 16384
)

// Parse parses src as a bash script; a script over the limits above is
// not parsed and the error is a *TooComplex.
func Parse(src string) (*syntax.File, error) {
	text, quotes, err := shapeError(src)
	if err != nil {
		return nil, err
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	f, err := p.Parse(strings.NewReader(text), "")
	if err != nil {
		return nil, fmt.Errorf("parse command: %w", err)
	}
	if quotes != nil {
		if err := unblank(f, src, quotes); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// TooComplex is the error Parse returns for a script over a limit: the
// caller judges it (the guard: parse.too-complex) without a parse.
type TooComplex struct{ Why string }

func (e *TooComplex) Error() string { return e.Why }

// shapeError says why src may not be parsed, nil when it may. text is
// what the parser is to read: src, or src with the text of its long
// single-quoted strings blanked when src is over maxScript or
// maxOpeners, quotes then being their spans.
func shapeError(src string) (text string, quotes [][2]int, err error) {
	if len(src) > maxQuotedScript {
		return "", nil, &TooComplex{fmt.Sprintf("the script is %d KiB, over the %d KiB the guard reads", len(src)>>10, maxQuotedScript>>10)}
	}
	if len(src) <= maxNesting {
		return src, nil, nil // each level takes a byte at least
	}
	s := scanner{src: src, cmdStart: true}
	s.scan()
	if s.depth > maxNesting {
		return "", nil, &TooComplex{fmt.Sprintf("constructs nest %d levels deep, over the %d the guard parses", s.depth, maxNesting)}
	}
	text, size := src, len(src)
	// openers are text's nesting tokens, -1 until counted: a script over
	// maxScript is blanked without counting, and one blanked is counted
	// again, as the parser reads it.
	openers := -1
	blank := len(src) > maxScript
	if !blank && len(src) > maxOpeners {
		openers = countOpeners(src)
		blank = openers > maxOpeners
	}
	if blank && len(s.quotes) > 0 {
		text, quotes, openers = blankQuotes(src, s.quotes), s.quotes, -1
		for _, q := range quotes {
			size -= q[1] - q[0]
		}
	}
	if size > maxScript {
		return "", nil, &TooComplex{fmt.Sprintf("the script is %d KiB, over the %d KiB the guard parses", size>>10, maxScript>>10)}
	}
	if openers < 0 && len(text) > maxOpeners {
		openers = countOpeners(text)
	}
	if openers > maxOpeners {
		return "", nil, &TooComplex{fmt.Sprintf("%d nesting tokens, over the %d the guard parses", openers, maxOpeners)}
	}
	return text, quotes, nil
}

// blankQuotes replaces the text of the single-quoted strings at quotes
// with letters, keeping newlines (here-documents start after a line) and
// every offset. The parser of the result cannot recurse on what the
// strings held; unblank checks that it read them as the strings the scan
// found, so a misreading of the scan costs a refusal, never a wrong
// parse.
func blankQuotes(src string, quotes [][2]int) string {
	b := []byte(src)
	for _, q := range quotes {
		for i := q[0]; i < q[1]; i++ {
			if b[i] != '\n' {
				b[i] = 'x'
			}
		}
	}
	return string(b)
}

// unblank puts the text of blanked single-quoted strings back into f,
// parsed from the blanked text of src; an error when the parser did not
// read every blanked span as a single-quoted string.
func unblank(f *syntax.File, src string, quotes [][2]int) error {
	at := make(map[int]int, len(quotes)) // start -> end
	for _, q := range quotes {
		at[q[0]] = q[1]
	}
	found := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		if q, ok := n.(*syntax.SglQuoted); ok && !q.Dollar {
			start := int(q.Left.Offset()) + 1
			if end, ok := at[start]; ok && int(q.Right.Offset()) == end {
				q.Value = src[start:end]
				delete(at, start)
				found++
			}
		}
		return true
	})
	if found != len(quotes) {
		return &TooComplex{"the guard's scan and the parser read the script's quotes differently"}
	}
	return nil
}

// nest is a construct open at some point of the scan.
type nest uint8

const (
	nParen nest = iota // ( $( <( >( $((
	nBrace             // { ${
	nQuote             // "
	nBackquote
	nIf   // if ... fi
	nLoop // while/until/for/select ... done
	nCase // case ... esac
)

// scanner reads a script the way the shell's lexer would, closely enough
// to know which constructs are open: quotes, escapes, comments and
// here-document bodies are not code.
type scanner struct {
	src      string
	stack    []nest
	depth    int
	cmdStart bool     // the next word is in command position
	heredocs []string // delimiters of here-documents whose bodies follow the line
	quotes   [][2]int // the text of single-quoted strings of minBlank bytes or more
}

// wordEnd marks the bytes that end a plain word: a keyed array literal,
// static data (a loop filling it would run in package init).
var wordEnd = [256]bool{
	' ': true, '\t': true, '\r': true, '\n': true, ';': true, '&': true, '|': true, '(': true, ')': true, '<': true,
	'>': true, '\'': true, '"': true, '`': true, '$': true, '\\': true, '{': true, '}': true,
}

func (s *scanner) push(n nest) {
	s.stack = append(s.stack, n)
	s.depth = max(s.depth, len(s.stack))
}

// pop closes the innermost construct if it is n; a closer that matches
// nothing open (a case pattern's ")") closes nothing.
func (s *scanner) pop(n nest) bool {
	if k := len(s.stack); k > 0 && s.stack[k-1] == n {
		s.stack = s.stack[:k-1]
		return true
	}
	return false
}

func (s *scanner) inQuote() bool { return len(s.stack) > 0 && s.stack[len(s.stack)-1] == nQuote }

func (s *scanner) scan() {
	src := s.src
	for i := 0; i < len(src); i++ {
		if s.inQuote() {
			i = s.quoted(i)
			continue
		}
		c := src[i]
		switch c {
		case '\\':
			i++
		case '\'':
			j := skipTo(src, i+1, '\'')
			if j-i-1 >= minBlank && j < len(src) {
				s.quotes = append(s.quotes, [2]int{i + 1, j})
			}
			i = j
			s.cmdStart = false
		case '"':
			s.push(nQuote)
			s.cmdStart = false
		case '`':
			if !s.pop(nBackquote) {
				s.push(nBackquote)
				s.cmdStart = true
			}
		case '#':
			if i == 0 || strings.IndexByte(" \t\n;&|()", src[i-1]) >= 0 {
				i = skipTo(src, i, '\n') - 1
			} else {
				s.cmdStart = false
			}
		case '$':
			i = s.dollar(i)
		case '(':
			s.push(nParen)
			s.cmdStart = true
		case ')':
			s.pop(nParen)
			s.cmdStart = true
		case '{':
			s.push(nBrace)
			s.cmdStart = true
		case '}':
			s.pop(nBrace)
		case '\n':
			if len(s.heredocs) > 0 {
				i = skipHeredocs(src, i+1, s.heredocs) - 1
				s.heredocs = s.heredocs[:0]
			}
			s.cmdStart = true
		case ';', '&', '|', '!':
			s.cmdStart = true
		case '<', '>':
			i = s.redirect(i)
		case ' ', '\t', '\r':
		default:
			i = s.word(i)
		}
	}
}

// quoted handles src[i] inside double quotes and returns the last index
// consumed.
func (s *scanner) quoted(i int) int {
	switch s.src[i] {
	case '\\':
		return i + 1
	case '"':
		s.pop(nQuote)
	case '`':
		s.push(nBackquote)
		s.cmdStart = true
	case '$':
		return s.dollar(i)
	}
	return i
}

// dollar handles a "$" at i: $( $(( ${ $'...'.
func (s *scanner) dollar(i int) int {
	if i+1 >= len(s.src) {
		return i
	}
	switch s.src[i+1] {
	case '(':
		s.push(nParen)
		s.cmdStart = true
		return i + 1
	case '{':
		s.push(nBrace)
		return i + 1
	case '\'':
		if !s.inQuote() {
			return skipANSIC(s.src, i+2)
		}
	}
	s.cmdStart = false
	return i
}

// redirect handles "<" or ">" at i: process substitutions and
// here-document operators (whose delimiter is read here).
func (s *scanner) redirect(i int) int {
	src := s.src
	if i+1 < len(src) && src[i+1] == '(' {
		s.push(nParen)
		s.cmdStart = true
		return i + 1
	}
	if src[i] != '<' || i+1 >= len(src) || src[i+1] != '<' || i+2 < len(src) && src[i+2] == '<' {
		return i
	}
	j := i + 2
	strip := j < len(src) && src[j] == '-'
	if strip {
		j++
	}
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	var d strings.Builder
	for ; j < len(src) && strings.IndexByte(" \t\n;&|()<>", src[j]) < 0; j++ {
		if c := src[j]; c != '\'' && c != '"' && c != '\\' {
			d.WriteByte(c)
		}
	}
	if d.Len() > 0 {
		delim := d.String()
		if strip {
			delim = "\t" + delim // marks <<-: leading tabs are stripped
		}
		s.heredocs = append(s.heredocs, delim)
	}
	return j - 1
}

// word reads a plain word at i and returns its last index; reserved words
// in command position open and close compound commands.
func (s *scanner) word(i int) int {
	src := s.src
	j := i
	for j < len(src) && !wordEnd[src[j]] {
		j++
	}
	if j == i {
		s.cmdStart = false
		return i
	}
	w := src[i:j]
	if s.cmdStart {
		switch w {
		case "if":
			s.push(nIf)
		case "while", "until", "for", "select":
			s.push(nLoop)
		case "case":
			s.push(nCase)
		case "fi":
			s.pop(nIf)
		case "done":
			s.pop(nLoop)
		case "esac":
			s.pop(nCase)
		}
	}
	switch w {
	case "if", "then", "else", "elif", "while", "until", "do", "time":
		// A command follows a reserved word in command position.
	default:
		s.cmdStart = false
	}
	return j - 1
}

// skipTo returns the index of the first c at or after i, len(src) if none.
func skipTo(src string, i int, c byte) int {
	if k := strings.IndexByte(src[min(i, len(src)):], c); k >= 0 {
		return i + k
	}
	return len(src)
}

// skipANSIC returns the index of the quote closing a $'...' string whose
// text starts at i.
func skipANSIC(src string, i int) int {
	for ; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '\'':
			return i
		}
	}
	return len(src)
}

// skipHeredocs skips the bodies of here-documents starting at i, in
// order, and returns the index after the last delimiter line.
func skipHeredocs(src string, i int, delims []string) int {
	for _, d := range delims {
		strip := strings.HasPrefix(d, "\t")
		d = strings.TrimPrefix(d, "\t")
		for i < len(src) {
			end := skipTo(src, i, '\n')
			line := src[i:end]
			i = end + 1
			if strip {
				line = strings.TrimLeft(line, "\t")
			}
			if line == d {
				break
			}
		}
	}
	return min(i, len(src))
}

// countOpeners counts, without regard to quoting, the bytes and reserved
// words that open a nested construct in the parser.
func countOpeners(src string) int {
	n := strings.Count(src, "(") + strings.Count(src, "{") + strings.Count(src, "`")
	for _, kw := range []string{"if", "while", "until", "for", "select", "case"} {
		for i := 0; ; {
			k := strings.Index(src[i:], kw)
			if k < 0 {
				break
			}
			n++
			i += k + len(kw)
		}
	}
	return n
}
