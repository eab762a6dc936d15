// Package jsonl reads newline-delimited JSON from a peer that may send
// anything: lines bounded in length, and a nesting-depth check that needs
// no parse. Both protocol servers use it (internal/serve for the OpenCode
// plugin, internal/mcp for MCP), so one malformed, huge or deeply nested
// line costs one error answer there, never the server.
package jsonl

import (
	"bufio"
	"errors"
)

// ReadLine reads one line without its newline. A line longer than max is
// read to its end and dropped: tooLong is set and line holds its first
// 256 bytes (for an id to answer to), so the next call starts on the next
// line and memory stays bounded by max.
func ReadLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > max+1 {
			if !tooLong {
				head := append(buf, chunk...)
				if len(head) > 256 {
					head = head[:256]
				}
				buf = append([]byte(nil), head...)
				tooLong = true
			}
		} else if !tooLong {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !tooLong && len(buf) > 0 && buf[len(buf)-1] == '\n' {
			buf = buf[:len(buf)-1]
		}
		return buf, tooLong, err
	}
}

// Deeper reports whether the JSON text b nests arrays and objects more
// than max deep. It only counts brackets outside strings, so it is cheap
// and safe on any bytes; b need not be valid JSON. A decoder then never
// sees a value that would make it recurse or allocate per level.
func Deeper(b []byte, max int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > max {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}
