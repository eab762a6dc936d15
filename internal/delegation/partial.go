package delegation

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/transcript"
)

// partialTail is how much of the end of a subagent's transcript is read
// for its last text.
const partialTail = 64 << 10

// MaxPartial bounds the partial result kept and shown, in bytes.
const MaxPartial = 1500

// subagentTranscript is the subagent's transcript when the host keeps
// one atreides can read: Claude Code's format only.
func subagentTranscript(host *event.HostFacts, sessionTranscript, agentID string) string {
	if host.Transcript != event.ClaudeTranscript {
		return ""
	}
	return transcript.ClaudeSubagent(sessionTranscript, agentID)
}

// lastText is the last assistant text in a Claude Code transcript (JSONL),
// cut to [MaxPartial] bytes; "" when there is none or it cannot be read
// (the partial result is a courtesy, never a reason to fail).
func lastText(path string) string {
	var text string
	if path == "" {
		return ""
	}
	_ = transcript.ScanFile(path, partialTail, func(l []byte) bool {
		text = assistantText(l)
		return text != ""
	})
	return bounded(text, MaxPartial)
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
