package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// dedupWindow is how far back from the ledger's end an append looks for
// a record of the same tool use. A host resends a PostToolUse right after
// the first (a hook that timed out, a retried delivery), and a queued
// record that was appended but not removed comes back at the next append:
// both land within the last records, so reading the whole ledger on every
// append would buy nothing.
const dedupWindow = 64 << 10

// recorded reports whether the end of the ledger already holds a record
// of r's tool use for the same files: appends are idempotent per tool-use
// id (and file, since one call can change several). A record without a
// tool-use id (a hand-made one, an old version's) is never a duplicate.
func (t *tail) recorded(r *Record) bool {
	m := r.Metadata.Atreides
	if m == nil || m.ToolUseID == "" || t.size == 0 {
		return false
	}
	id, err := json.Marshal(m.ToolUseID)
	if err != nil {
		return false
	}
	needle := append([]byte(`"tool_use_id":`), id...)
	n := min(int64(dedupWindow), t.size)
	buf := make([]byte, n)
	if _, err := t.f.ReadAt(buf, t.size-n); err != nil {
		return false // fail open: a duplicate is better than a lost record
	}
	lines := bytes.Split(buf, []byte{'\n'})
	if n < t.size {
		lines = lines[1:] // the first is cut
	}
	for _, l := range lines {
		if !bytes.Contains(l, needle) {
			continue
		}
		var prev Record
		if json.Unmarshal(l, &prev) == nil && prev.Metadata.Atreides != nil &&
			prev.Metadata.Atreides.ToolUseID == m.ToolUseID && slices.Equal(paths(prev), paths(*r)) {
			return true
		}
	}
	return false
}

func paths(r Record) []string {
	out := make([]string, len(r.Files))
	for i, f := range r.Files {
		out[i] = f.Path
	}
	return out
}

// skipNote is the note for a record not appended again.
func skipNote(r *Record) string {
	return fmt.Sprintf("a record of tool use %s for %v is in the ledger already; not appended again", r.Metadata.Atreides.ToolUseID, paths(*r))
}
