package audit

import (
	"bytes"
	"encoding/json"
	"io"
)

// fields are the top-level values filters and stats look at, found by
// scanning a line without decoding it. Strings are raw: between their
// quotes, escapes undone only when compared (see str).
type fields struct {
	time, host, session, verdict, rule []byte
	event                              []byte // the engine's kind, for VerdictOf
	block                              bool
	// For the text view only (see Row).
	hostEvent, tool, command []byte
	machine                  []byte
	paths                    []byte // the raw array
	marks                    []byte // the raw array
}

// scan reads the top-level keys of one JSON object line into f. It checks
// the object's structure, not every escape in it; lines about to be shown
// are checked in full with json.Valid.
func scan(line []byte, f *fields) bool {
	*f = fields{}
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return false
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return true
	}
	for i < len(line) {
		if line[i] != '"' {
			return false
		}
		end := stringEnd(line, i+1)
		if end < 0 {
			return false
		}
		key := line[i+1 : end]
		i = skipSpace(line, end+1)
		if i >= len(line) || line[i] != ':' {
			return false
		}
		i = skipSpace(line, i+1)
		if i >= len(line) {
			return false
		}
		start := i
		switch line[i] {
		case '"':
			end = stringEnd(line, i+1)
			if end < 0 {
				return false
			}
			f.set(key, line[i+1:end])
			i = end + 1
		case '{', '[':
			if i = skipNested(line, i); i < 0 {
				return false
			}
			switch string(key) {
			case "paths":
				f.paths = line[start:i]
			case "marks":
				f.marks = line[start:i]
			}
		default:
			for i < len(line) && line[i] != ',' && line[i] != '}' && !isSpace(line[i]) {
				i++
			}
			if string(key) == "block" {
				f.block = string(line[start:i]) == "true"
			}
		}
		i = skipSpace(line, i)
		if i >= len(line) {
			return false
		}
		switch line[i] {
		case '}':
			return skipSpace(line, i+1) == len(line)
		case ',':
			i = skipSpace(line, i+1)
		default:
			return false
		}
	}
	return false
}

func (f *fields) set(key, v []byte) {
	switch string(key) {
	case "time":
		f.time = v
	case "host":
		f.host = v
	case "session":
		f.session = v
	case "verdict":
		f.verdict = v
	case "event":
		f.event = v
	case "rule":
		f.rule = v
	case "host_event":
		f.hostEvent = v
	case "tool":
		f.tool = v
	case "command":
		f.command = v
	case "machine":
		f.machine = v
	}
}

// stringEnd returns the index of the quote closing the string whose first
// byte is at i, or -1.
func stringEnd(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		j += i
		n := 0 // backslashes right before the quote
		for k := j - 1; k >= i && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return j
		}
		i = j + 1
	}
}

// skipNested returns the index after the object or array starting at i,
// or -1.
func skipNested(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			end := stringEnd(b, i+1)
			if end < 0 {
				return -1
			}
			i = end
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return -1
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// str is a raw JSON string's value.
func str(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var s string
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	if json.Unmarshal(q, &s) != nil {
		return string(raw)
	}
	return s
}

// eq reports whether a raw JSON string holds s, without allocating for
// strings without escapes (all that atreides writes in the fields
// filtered on, in practice).
func eq(raw []byte, s string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == s
	}
	return str(raw) == s
}

// maxLine bounds one line; a record is a few KiB, so a longer line is
// damage, skipped without holding it all in memory.
const maxLine = 1 << 20

// lines splits a file into lines as it grows. A last line without its
// newline stays buffered until the rest of it is written, so a follower
// polling the file never sees half a record.
type lines struct {
	r        io.Reader
	buf      []byte
	i, n     int  // buf[i:n] is read and not yet returned
	skipping bool // inside a line longer than maxLine
	damaged  int  // overlong lines dropped
}

func newLines(r io.Reader) *lines { return &lines{r: r, buf: make([]byte, 256<<10)} }

// next returns the next complete line, without its newline, valid until
// the next call; io.EOF means no complete line is there yet.
func (l *lines) next() ([]byte, error) {
	for {
		if j := bytes.IndexByte(l.buf[l.i:l.n], '\n'); j >= 0 {
			line := l.buf[l.i : l.i+j]
			l.i += j + 1
			if l.skipping {
				l.skipping = false
				continue
			}
			return line, nil
		}
		if l.i > 0 {
			l.n = copy(l.buf, l.buf[l.i:l.n])
			l.i = 0
		}
		if l.n == len(l.buf) {
			if len(l.buf) >= maxLine {
				l.n, l.skipping = 0, true
				l.damaged++
			} else {
				l.buf = append(l.buf, make([]byte, len(l.buf))...)
			}
		}
		m, err := l.r.Read(l.buf[l.n:])
		l.n += m
		if m == 0 && err != nil {
			return nil, err
		}
	}
}
