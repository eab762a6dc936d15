package command

import (
	"os"
	"strings"
	"sync"

	"github.com/atreides-dev/atreides/internal/audit"
	"golang.org/x/term"
)

// Terminal output: colour only when stdout is a terminal, NO_COLOR is
// unset and TERM is not "dumb"; piped output is plain text, byte for byte
// what scripts and tests see.

// ColorFor returns the lazy answer to "may out be coloured?": a hook, which
// prints no text for people, never asks, so never pays the ioctl.
func ColorFor(out *os.File, getenv func(string) string) func() bool {
	return sync.OnceValue(func() bool {
		if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
			return false
		}
		return term.IsTerminal(int(out.Fd()))
	})
}

// Style paints text for a terminal; its zero value paints nothing.
type Style struct{ on bool }

// StyleOf is the style of io's Out: painting only on a terminal that takes colour.
func StyleOf(io *IO) Style { return Style{on: io.Color != nil && io.Color()} }

// The SGR codes a command paints with. Every code is two digits, so that painted cells of one column keep the
// same width and tabwriter still aligns them.
const (
	sgrBold   = "01"
	sgrDim    = "02"
	SGRRed    = "31"
	SGRGreen  = "32"
	SGRYellow = "33"
	SGRCyan   = "36"
)

// Paint wraps text in the SGR code when s paints.
func (s Style) Paint(code, text string) string {
	if !s.on {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s Style) Bold(text string) string { return s.Paint(sgrBold, text) }
func (s Style) Dim(text string) string  { return s.Paint(sgrDim, text) }

// Verdict colours a guard Verdict, a status or an outcome ("blocked
// (rule)") by how it went: by its first word.
func (s Style) Verdict(v string) string {
	word, _, _ := strings.Cut(v, " ")
	switch word {
	case "deny", "denied", "blocked", "failed", "problem", "PROBLEM", "BROKEN":
		return s.Paint(SGRRed, v)
	case "ask", "asked", "pending", "note", "held":
		return s.Paint(SGRYellow, v)
	case "allow", "ok", "done", "OK":
		return s.Paint(SGRGreen, v)
	}
	return s.Paint(SGRCyan, v)
}

// CallVerdict is the verdict on a tool call as lists say it: "allow" for
// one atreides let through, whether a rule allowed it or none spoke
// (audit.CallVerdict, the trail's reading).
func CallVerdict(verdict string) string { return audit.CallVerdict(verdict) }

// OneLine is s on one line, its control characters escaped, cut to n
// terminal columns with an ellipsis, for a table cell or a list item
// (flatten and Truncate, as a table's cells).
func OneLine(s string, n int) string {
	return Truncate(flatten(s), n)
}
