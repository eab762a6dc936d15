package top

import (
	tea "charm.land/bubbletea/v2"
)

// key handles a key press: the filter line first while it is being
// typed, then help, then the screen's own keys.
func (m Model) key(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if k.String() == "ctrl+c" {
		return m, tea.Quit
	}
	switch {
	case m.typing:
		return m.filterKey(k)
	case m.mode == modeHelp:
		m.mode = m.back
		return m, nil
	case m.mode == modeSession:
		return m.sessionKey(k)
	}
	return m.listKey(k)
}

// filterKey edits the filter: enter keeps it, esc drops it.
func (m Model) filterKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch k.String() {
	case "enter":
		m.typing = false
	case "esc":
		m.typing, m.filter = false, ""
	case "backspace":
		if r := []rune(m.filter); len(r) > 0 {
			m.filter = string(r[:len(r)-1])
		}
	default:
		if k.Text != "" {
			m.filter += k.Text
		}
	}
	m.item = 0
	m.keepSelection()
	return m, nil
}

// common handles the keys every screen shares; ok false when k is none.
func (m Model) common(k tea.KeyPressMsg) (Model, bool) {
	switch k.String() {
	case "/":
		m.typing = true
	case "?":
		m.back, m.mode = m.mode, modeHelp
	default:
		return m, false
	}
	return m, true
}

// listKey: move, open a session, clear the filter, quit.
func (m Model) listKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if mm, ok := m.common(k); ok {
		return mm, nil
	}
	switch k.String() {
	case "q":
		return m, tea.Quit
	case "esc":
		if m.filter == "" {
			return m, tea.Quit
		}
		m.filter = ""
		m.keepSelection()
	case "j", "down":
		m.moveSession(1)
	case "k", "up":
		m.moveSession(-1)
	case "g", "home":
		m.moveSession(-len(m.data.Sessions))
	case "G", "end":
		m.moveSession(len(m.data.Sessions))
	case "enter", "l", "right":
		if m.selected != "" {
			m.mode, m.item, m.filter = modeSession, 0, ""
			return m.reload()
		}
	}
	return m, nil
}

// moveSession moves the selection by d visible sessions, within bounds.
func (m *Model) moveSession(d int) {
	rows := m.sessions()
	if len(rows) == 0 {
		return
	}
	i := 0
	for j, r := range rows {
		if r.ID == m.selected {
			i = j
		}
	}
	m.selected = rows[clamp(i+d, 0, len(rows)-1)].ID
}

// sessionKey: move among the session's items, back to the list.
func (m Model) sessionKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if mm, ok := m.common(k); ok {
		return mm, nil
	}
	n := len(m.items())
	page := max(1, m.height/2)
	switch k.String() {
	case "esc", "q", "h", "left", "backspace":
		if m.filter != "" && k.String() == "esc" {
			m.filter, m.item = "", 0
			return m, nil
		}
		m.mode, m.filter = modeList, ""
		m.data.Focus, m.data.Items = "", nil
		return m, nil
	case "j", "down":
		m.item++
	case "k", "up":
		m.item--
	case "pgdown", "space":
		m.item += page
	case "pgup":
		m.item -= page
	case "g", "home":
		m.item = 0
	case "G", "end":
		m.item = n - 1
	}
	m.item = clamp(m.item, 0, max(0, n-1))
	return m, nil
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }
