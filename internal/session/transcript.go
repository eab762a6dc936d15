package session

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
)

// transcriptTail is how much of the end of a transcript is read to find
// the last user entry.
const transcriptTail = 64 << 10

// interruptMarker is the text Claude Code writes as a user entry when the
// user interrupts a turn.
var interruptMarker = []byte("[Request interrupted by user")

// transcriptInterrupted reports whether the last user entry of a Claude
// Code transcript (JSONL) is an interrupt. It reads only the tail of the
// file, and any error means "not interrupted": the check may only ever
// prevent a block, never cause one. The transcript is written
// asynchronously and may lag, so this complements, not replaces, the
// interrupt seen in a failed tool call.
func transcriptInterrupted(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false
	}
	off := max(st.Size()-transcriptTail, 0)
	buf := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
		return false
	}
	lines := bytes.Split(buf, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		l := bytes.TrimSpace(lines[i])
		if len(l) == 0 || l[0] != '{' {
			continue
		}
		var entry struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(l, &entry) != nil {
			continue // the first line of the tail may be cut
		}
		switch entry.Type {
		case "user":
			return bytes.Contains(l, interruptMarker)
		case "assistant":
			return false
		}
	}
	return false
}
