package install

import (
	"strings"
	"testing"
)

// TestAgentFileMarker: a file is ours only with the marker near its
// start, and an edit anywhere, the marker line included, shows.
func TestAgentFileMarker(t *testing.T) {
	ours := withMarker(agentMarker, "---\nname: x\n---\nbody\n")
	tests := []struct {
		name string
		data string
		want FileState
	}{
		{"as written", ours, OursAsWritten},
		{"body edited", ours + "more\n", OursEdited},
		{"digest edited", strings.Replace(ours, "digest ", "digest 0", 1), OursEdited},
		{"no marker", "---\nname: x\n---\nbody\n", UserFile},
		{"marker quoted in the body", "---\nname: x\n---\n" + ours, UserFile},
	}
	for _, tt := range tests {
		if got := classifyMarked(agentMarker, []byte(tt.data)); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
}
