package cli

import (
	"os"
	"strings"
	"sync"

	"golang.org/x/term"
)

// Terminal output: colour only when stdout is a terminal, NO_COLOR is
// unset and TERM is not "dumb"; piped output is plain text, byte for byte
// what scripts and tests see.

// colorFor returns the lazy answer to "may out be coloured?": a hook, which
// prints no text for people, never asks, so never pays the ioctl.
func colorFor(out *os.File, getenv func(string) string) func() bool {
	return sync.OnceValue(func() bool {
		if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
			return false
		}
		return term.IsTerminal(int(out.Fd()))
	})
}

// style paints text for a terminal; its zero value paints nothing.
type style struct{ on bool }

func styleOf(io *IO) style { return style{on: io.Color != nil && io.Color()} }

// Every code is two digits, so that painted cells of one column keep the
// same width and tabwriter still aligns them.
const (
	sgrBold   = "01"
	sgrDim    = "02"
	sgrRed    = "31"
	sgrGreen  = "32"
	sgrYellow = "33"
	sgrCyan   = "36"
)

func (s style) paint(code, text string) string {
	if !s.on {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s style) bold(text string) string { return s.paint(sgrBold, text) }
func (s style) dim(text string) string  { return s.paint(sgrDim, text) }

// verdict colours a guard verdict, a status or an outcome ("blocked
// (rule)") by how it went: by its first word.
func (s style) verdict(v string) string {
	word, _, _ := strings.Cut(v, " ")
	switch word {
	case "deny", "denied", "blocked", "failed", "problem", "PROBLEM", "BROKEN":
		return s.paint(sgrRed, v)
	case "ask", "asked", "pending", "note", "held":
		return s.paint(sgrYellow, v)
	case "allow", "ok", "done", "OK":
		return s.paint(sgrGreen, v)
	}
	return s.paint(sgrCyan, v)
}

func oneLine(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
