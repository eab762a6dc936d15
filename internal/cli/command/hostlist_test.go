package command

import (
	"strings"
	"testing"
)

func TestAppendList(t *testing.T) {
	for _, tc := range []struct {
		text  string
		items []string
		want  string
	}{
		{"", nil, ""},
		{"of ", []string{"A"}, "of A"},
		{"of ", []string{"A", "B"}, "of A and B"},
		{"of ", []string{"A", "B", "C"}, "of A, B and C"},
		// A break before the item that would pass column 79; the separator
		// stays on its line, and the column counts from the last line.
		{"x\n" + pad(70), []string{"Claude", "Codex"}, "x\n" + pad(70) + "Claude and\nCodex"},
		{pad(66), []string{"Gemini CLI,", "Codex"}, pad(66) + "Gemini CLI, and\nCodex"},
		{pad(60), []string{"Gemini", "Codex"}, pad(60) + "Gemini and Codex"},
	} {
		if got := AppendList(tc.text, tc.items); got != tc.want {
			t.Errorf("AppendList(%q, %q) = %q, want %q", tc.text, tc.items, got, tc.want)
		}
	}
}

func pad(n int) string { return strings.Repeat(".", n) }
