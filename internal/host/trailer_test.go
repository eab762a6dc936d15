package host

import (
	"slices"
	"strings"
	"testing"
)

// TestTrailerLines: the block is taken from the end, last line first,
// past trailing blank lines and CRs, and stops at the first line that is
// not the trailer's, so a trailer-like line above the output is not in it.
func TestTrailerLines(t *testing.T) {
	in := func(l string) bool { return strings.HasPrefix(l, "T:") }
	for text, want := range map[string][]string{
		"out\nT:1\nT:2":      {"T:2", "T:1"},
		"out\r\nT:1\r\n\n\n": {"T:1"},
		"T:0\nout\nT:1":      {"T:1"},
		"T:0\nout":           nil,
		"":                   nil,
		"T:only":             {"T:only"},
		"out\nT:1\nnot\n":    nil,
	} {
		if got := TrailerLines(text, in); !slices.Equal(got, want) {
			t.Errorf("TrailerLines(%q) = %q, want %q", text, got, want)
		}
	}
}
