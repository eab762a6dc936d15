package host

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/atreides-dev/atreides/internal/event"
)

// FitContext joins context blocks in priority order within max characters.
// A block that does not fit is left out whole rather than cut mid-structure;
// only a first block that alone is too long is cut, at a line boundary.
func FitContext(blocks []event.ContextBlock, max int) string {
	var b strings.Builder
	dropped := 0
	for _, c := range blocks {
		if c.Text == "" {
			continue
		}
		sep := 0
		if b.Len() > 0 {
			sep = 2
		}
		switch {
		case b.Len()+sep+len(c.Text) <= max:
			if sep > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(c.Text)
		case b.Len() == 0:
			b.WriteString(cutAtLine(c.Text, max-40))
			b.WriteString("\n[atreides: context trimmed]")
		default:
			dropped++
		}
	}
	if dropped > 0 && b.Len()+60 <= max {
		b.WriteString("\n\n[atreides: lower-priority context left out to fit]")
	}
	return b.String()
}

// cutAtLine shortens s to at most n bytes, at the last line break if there
// is one, else at a rune boundary.
func cutAtLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		return s[:i]
	}
	return s
}

// SniffEventName finds hook_event_name in bytes that do not parse, such as a
// payload cut short: hosts write it before the tool input, so it usually
// survives truncation.
func SniffEventName(data []byte) string { return SniffString(data, "hook_event_name") }

// SniffString finds the string value of "key" in JSON bytes that may not
// parse, without decoding them.
func SniffString(data []byte, key string) string {
	q := `"` + key + `"`
	i := bytes.Index(data, []byte(q))
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(data[i+len(q):], " \t\r\n")
	if len(rest) == 0 || rest[0] != ':' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || rest[0] != '"' {
		return ""
	}
	end := bytes.IndexByte(rest[1:], '"')
	if end < 0 {
		return ""
	}
	return string(rest[1 : 1+end])
}

// MaxOutput bounds the tool output kept in an event: history and error
// recognition need the gist, not megabytes.
const MaxOutput = 8 << 10

// Clip cuts s to MaxOutput bytes at a rune boundary.
func Clip(s string) string {
	if len(s) <= MaxOutput {
		return s
	}
	n := MaxOutput
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
