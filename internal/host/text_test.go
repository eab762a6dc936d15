package host

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/atreides-dev/atreides/internal/event"
)

const max = 10000

func TestFitContext(t *testing.T) {
	big := strings.Repeat("line of context\n", 1000) // 16,000 chars
	blocks := []event.ContextBlock{{Text: "critical"}, {Text: big}, {Text: "small"}}
	got := FitContext(blocks, max)
	if len(got) > max {
		t.Fatalf("len %d over cap", len(got))
	}
	if !strings.HasPrefix(got, "critical\n\nsmall") || !strings.Contains(got, "left out") {
		t.Errorf("want the block that does not fit left out whole, got %q", got[:min(80, len(got))])
	}
	first := FitContext([]event.ContextBlock{{Text: big}}, max)
	if len(first) > max || !strings.HasSuffix(first, "[atreides: context trimmed]") {
		t.Errorf("a lone oversized block must be cut at a line: len %d", len(first))
	}
	if strings.Contains(first, "line of con\n") {
		t.Error("cut mid-line")
	}
}

func TestCutAtLineKeepsRunes(t *testing.T) {
	s := strings.Repeat("é", 100) // two bytes each, no line breaks
	for n := range 50 {
		if got := cutAtLine(s, n); !utf8.ValidString(got) || len(got) > n {
			t.Fatalf("cutAtLine(_, %d) = %q", n, got)
		}
	}
}

func TestSniffEventName(t *testing.T) {
	for in, want := range map[string]string{
		`{"session_id":"s","hook_event_name":"PreToolUse","tool_input":{"command":"rm -`: "PreToolUse",
		`{"hook_event_name" :  "BeforeTool"`:                                             "BeforeTool",
		`{"hook_event_name":`:                                                            "",
		`{"hook_event_name":"Pre`:                                                        "",
		`garbage`:                                                                        "",
	} {
		if got := SniffEventName([]byte(in)); got != want {
			t.Errorf("SniffEventName(%q) = %q, want %q", in, got, want)
		}
	}
}
