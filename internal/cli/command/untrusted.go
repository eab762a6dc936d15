package command

import (
	"fmt"
	"io"

	"github.com/atreides-dev/atreides/internal/config"
)

// PrintIgnored lists ignored settings, one a line.
func PrintIgnored(w io.Writer, ignored []config.Ignored) {
	for _, ig := range ignored {
		fmt.Fprintf(w, "  %-9s %s = %s (line %d)\n", ig.Why, ig.Key, ig.Value, ig.Line)
	}
}

// NoteUntrusted tells a person on stderr which settings of an untrusted
// project configuration are not in force (config show, check).
func NoteUntrusted(w io.Writer, t config.Trust) {
	if !t.Untrusted() || len(t.Ignored) == 0 {
		return
	}
	fmt.Fprintf(w, "note: %s is not trusted; these settings of it are ignored (review and trust it with 'atreides trust'):\n", t.File)
	PrintIgnored(w, t.Ignored)
}
