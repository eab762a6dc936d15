package session

import (
	"bytes"
	"encoding/json"

	transcripts "github.com/atreides-dev/atreides/internal/transcript"
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
	interrupted := false
	_ = transcripts.ScanFile(path, transcriptTail, func(l []byte) bool {
		if l = bytes.TrimSpace(l); l[0] != '{' {
			return false
		}
		var entry struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(l, &entry) != nil {
			return false
		}
		switch entry.Type {
		case "user":
			interrupted = bytes.Contains(l, interruptMarker)
			return true
		case "assistant":
			return true
		}
		return false
	})
	return interrupted
}
