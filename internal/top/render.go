package top

import (
	"fmt"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// View draws the screen in the terminal's alternate screen, so that
// quitting gives back the shell as it was.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "atreides top"
	return v
}

// render is the screen's text: the mode's lines cut to the terminal,
// then the footer on the last line.
func (m Model) render() string {
	var body []string
	switch m.mode {
	case modeHelp:
		body = m.helpLines()
	case modeSession:
		body = m.sessionLines()
	default:
		body = m.listLines()
	}
	h := max(2, m.height)
	if len(body) > h-1 {
		body = body[:h-1]
	}
	for len(body) < h-1 {
		body = append(body, "")
	}
	body = append(body, m.footer())
	for i, l := range body {
		body[i] = ansi.Truncate(l, max(1, m.width), "…")
	}
	return strings.Join(body, "\n")
}

// header is the first line: the project, what it holds, when it was
// read, and the last load's error.
func (m Model) header() string {
	if !m.loaded {
		return m.paint("1", "atreides top") + " · loading…"
	}
	active := 0
	for _, s := range m.data.Sessions {
		if s.Active {
			active++
		}
	}
	where := filepath.Base(m.data.Root)
	if len(m.data.Roots) > 1 {
		where = plural(len(m.data.Roots), "project")
	}
	return fmt.Sprintf("%s · %s · %s, %d active · %d background · updated %s",
		m.paint("1", "atreides top"), where, plural(len(m.data.Sessions), "session"), active,
		len(m.data.Background), m.data.Taken.In(m.loc).Format("15:04:05"))
}

// status is the line under the header: the last load's error, which
// stays until a load succeeds. What is shown is the last good read of
// each project (--all: the others' are current).
func (m Model) status() string {
	if m.err == nil {
		return ""
	}
	return m.paint("31", "error: "+m.err.Error())
}

// footer is the keys of the screen, or the filter being typed.
func (m Model) footer() string {
	if m.typing {
		return "/" + m.filter + "█  " + m.paint("2", "enter keep · esc clear")
	}
	keys := "j/k move · enter open · / filter · ? help · q quit"
	switch m.mode {
	case modeSession:
		keys = "j/k move · esc back · / filter · ? help · ctrl+c quit"
	case modeHelp:
		keys = "any key: back"
	}
	if m.filter != "" {
		keys = "filter /" + m.filter + " (esc clears) · " + keys
	}
	return m.paint("2", keys)
}

// helpLines are the keys, in full.
func (m Model) helpLines() []string {
	return []string{
		m.paint("1", "atreides top: keys"), "",
		"  j, ↓        next session / item",
		"  k, ↑        previous session / item",
		"  g, G        first, last",
		"  pgup, pgdn  a page of items (session view)",
		"  enter, l    open the session: open todos, strikes, recent calls and decisions",
		"  esc, q, h   back to the sessions; on the sessions, quit",
		"  /           filter what the screen lists (enter keeps it, esc clears it)",
		"  ?           this help",
		"  ctrl+c      quit",
		"",
		"The screen follows the project's state and audit trail and redraws within a",
		"second of a hook event. It reads the same model as `atreides ui` and changes nothing.",
	}
}

// section is a rule line titling a part of the screen.
func (m Model) section(title string) string {
	return m.paint("2", "── ") + m.paint("1", title) + " " + m.paint("2", strings.Repeat("─", max(0, m.width-len(title)-4)))
}

// paint wraps s in an SGR code when the terminal takes colour; reverse
// video (the selection) is not a colour and is always drawn.
func (m Model) paint(code, s string) string {
	if !m.color && code != "7" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// verdictColor is a verdict's colour: deny red, ask yellow, allow green,
// a blocked event magenta.
func verdictColor(v string) string {
	switch v {
	case "deny":
		return "31"
	case "ask":
		return "33"
	case "allow":
		return "32"
	case "block":
		return "35"
	}
	return "2"
}
