package host

import (
	"bytes"
	"unicode/utf8"
)

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

// maxOutput bounds the tool output kept in an event: history and error
// recognition need the gist, not megabytes.
const maxOutput = 8 << 10

// Clip cuts s to maxOutput bytes at a rune boundary.
func Clip(s string) string {
	if len(s) <= maxOutput {
		return s
	}
	n := maxOutput
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
