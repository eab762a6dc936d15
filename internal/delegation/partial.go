package delegation

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// partialTail is how much of the end of a subagent's transcript is read
// for its last text.
const partialTail = 64 << 10

// MaxPartial bounds the partial result kept and shown, in bytes.
const MaxPartial = 1500

// subagentTranscript is where Claude Code keeps a subagent's transcript:
// <transcript dir>/<session>/subagents/agent-<id>.jsonl, next to the
// session's own <session>.jsonl. Other hosts keep none atreides can read.
func subagentTranscript(host, sessionTranscript, agentID string) string {
	if host != "claude" || sessionTranscript == "" || agentID == "" || strings.ContainsAny(agentID, `/\`) {
		return ""
	}
	return filepath.Join(strings.TrimSuffix(sessionTranscript, ".jsonl"), "subagents", "agent-"+agentID+".jsonl")
}

// lastText is the last assistant text in a Claude Code transcript (JSONL),
// cut to [MaxPartial] bytes; "" when there is none or it cannot be read
// (the partial result is a courtesy, never a reason to fail).
func lastText(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(st.Size()-partialTail, 0)
	buf := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
		return ""
	}
	lines := bytes.Split(buf, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if t := assistantText(lines[i]); t != "" {
			return bounded(t, MaxPartial)
		}
	}
	return ""
}

func assistantText(line []byte) string {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' || !bytes.Contains(line, []byte(`"assistant"`)) {
		return ""
	}
	var e struct {
		Type    string `json:"type"`
		Message struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &e) != nil || e.Type != "assistant" {
		return "" // the tail's first line may be cut
	}
	var parts []string
	for _, c := range e.Message.Content {
		if c.Type == "text" && strings.TrimSpace(c.Text) != "" {
			parts = append(parts, strings.TrimSpace(c.Text))
		}
	}
	return strings.Join(parts, "\n")
}

// bounded cuts s to at most n bytes at a rune boundary, marking the cut.
func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = " […]"
	n -= len(mark)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + mark
}
