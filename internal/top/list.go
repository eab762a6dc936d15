package top

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
)

// sessions are the sessions the filter lets through, newest activity
// first.
func (m Model) sessions() []view.ProjectSession {
	var out []view.ProjectSession
	for _, s := range m.data.Sessions {
		if contains(m.filter, s.ID, s.Host, s.Phase, sessionState(s.SessionRow), s.TaskTitle, filepath.Base(s.Project)) {
			out = append(out, s)
		}
	}
	return out
}

// decisions are the trail's records the filter lets through, newest
// first.
func (m Model) decisions() []audit.Row {
	var out []audit.Row
	for i := len(m.data.Decisions) - 1; i >= 0; i-- {
		r := m.data.Decisions[i]
		if contains(m.filter, r.Session, r.Host, r.HostEvent, r.Tool, r.Verdict, r.Rule, r.Target) {
			out = append(out, r)
		}
	}
	return out
}

// sessionState is active (an event within the idle time), idle, or
// ended.
func sessionState(s view.SessionRow) string {
	switch {
	case s.Ended != "":
		return "ended"
	case s.Active:
		return "active"
	}
	return "idle"
}

// listLines are the main screen: the sessions table, the newest
// decisions and the background tasks still running. The sessions take
// at most a third of the screen, so the decisions stay in view.
func (m Model) listLines() []string {
	lines := []string{m.header(), m.status()}
	rows := m.sessions()
	lines = append(lines, m.paint("1", "  "+m.projectCell("PROJECT")+cell("SESSION", 9)+cell("HOST", 9)+cell("PHASE", 15)+cell("STATE", 7)+
		cell("LAST", 5)+cell("CALLS", 6)+cell("DENY", 5)+cell("ASK", 4)+cell("TODO", 5)+cell("BG", 3)+"TASK"))
	if len(rows) == 0 {
		lines = append(lines, m.paint("2", "  no sessions yet: they appear with the first hook event"))
	}
	room := max(3, (m.height-6)/3)
	lines = append(lines, m.sessionRows(rows, room)...)
	bg := m.background("")
	decRoom := m.height - len(lines) - 3
	if len(bg) > 0 {
		decRoom -= min(len(bg), 5) + 2
	}
	lines = append(lines, "", m.section("Decisions, newest first"))
	decs := m.decisions()
	times := make([]time.Time, 0, len(decs))
	for i := range min(len(decs), max(1, decRoom)) {
		times = append(times, decs[i].Time)
	}
	cw := clockWidth(m.data.Taken, m.loc, times)
	if len(decs) == 0 {
		lines = append(lines, m.paint("2", "  none recorded yet"))
	}
	for i, r := range decs {
		if i >= max(1, decRoom) {
			break
		}
		lines = append(lines, m.decisionRow(r, cw))
	}
	if len(bg) > 0 {
		lines = append(lines, "", m.section("Background tasks"))
		for i, t := range bg {
			if i >= 5 {
				lines = append(lines, m.paint("2", fmt.Sprintf("  … %d more (atreides bg)", len(bg)-i)))
				break
			}
			lines = append(lines, m.bgRow(t))
		}
	}
	return lines
}

// sessionRows are the visible window of rows around the selection.
func (m Model) sessionRows(rows []view.ProjectSession, room int) []string {
	sel := 0
	for i, r := range rows {
		if r.ID == m.selected {
			sel = i
		}
	}
	first := max(0, sel-room+1)
	var out []string
	for i := first; i < len(rows) && i < first+room; i++ {
		out = append(out, m.sessionRow(rows[i], rows[i].ID == m.selected))
	}
	if len(rows) > room {
		out = append(out, m.paint("2", fmt.Sprintf("  (%d of %d sessions)", min(room, len(rows)), len(rows))))
	}
	return out
}

// sessionRow is one session's line; the selected one is marked and in
// reverse video.
func (m Model) sessionRow(s view.ProjectSession, selected bool) string {
	task := ""
	if s.Task != 0 {
		task = fmt.Sprintf("#%d %s", s.Task, s.TaskTitle)
	}
	c := s.Counters
	line := m.projectCell(s.Project) + cell(state.ShortID(s.ID, 0), 9) + cell(s.Host, 9) + cell(cmp.Or(s.Phase, "-"), 15) + cell(sessionState(s.SessionRow), 7) +
		cell(age(m.data.Taken, s.Updated), 5) + cell(fmt.Sprint(c.ToolCalls), 6) + cell(fmt.Sprint(c.Denied), 5) +
		cell(fmt.Sprint(c.Asked), 4) + cell(fmt.Sprint(s.OpenTodos), 5) + cell(fmt.Sprint(s.Background), 3) + oneLine(task)
	if selected {
		return m.paint("7", "▸ "+cell(line, max(10, m.width-2)))
	}
	if !s.Active {
		return m.paint("2", "  "+line)
	}
	return "  " + line
}

// decisionRow is one record of the trail: when, whose, the verdict, the
// tool (or the host's event) and what it was about.
func (m Model) decisionRow(r audit.Row, cw int) string {
	// A blocked event (a stop kept going, a prompt refused) says so in
	// the verdict's place: its verdict is none.
	verdict := r.Verdict
	if r.Block {
		verdict = "block"
	}
	what := relative(m.rootOf(r.Session), r.Target)
	if what == "" {
		what = r.Marks
	}
	tool := r.Tool
	if tool == "" {
		tool = r.HostEvent
	}
	rule := ""
	if r.Rule != "" {
		rule = "  " + m.paint("2", r.Rule)
	}
	return "  " + cell(clock(m.data.Taken, r.Time, m.loc), cw) + m.projectCell(m.rootOf(r.Session)) + cell(state.ShortID(r.Session, 0), 9) +
		m.paint(verdictColor(verdict), cell(verdict, 6)) + cell(tool, 13) + oneLine(what) + rule
}

// background are the tasks not yet ended that session launched (""
// every session's).
func (m Model) background(session string) []view.BgTask {
	var out []view.BgTask
	for _, t := range m.data.Background {
		if (session == "" || t.Parent == session) && contains(m.filter, t.ID, t.Parent, t.Agent, t.Status, t.Description) {
			out = append(out, t)
		}
	}
	return out
}

// bgRow is one background task's line.
func (m Model) bgRow(t view.BgTask) string {
	return "  " + cell(t.ID, 12) + cell(state.ShortID(t.Parent, 0), 9) + cell(t.Status, 9) + cell(t.Agent, 14) +
		cell(t.Runtime, 8) + strings.TrimSpace(oneLine(t.Description))
}

// projectCell is the project column, shown only when the screen shows
// more than one project (--all): a project's folder name.
func (m Model) projectCell(root string) string {
	if len(m.data.Roots) < 2 {
		return ""
	}
	if root == "PROJECT" {
		return cell(root, 15)
	}
	return cell(filepath.Base(root), 15)
}

// rootOf is the project of a session ("" when not listed), for its
// paths and its project column.
func (m Model) rootOf(session string) string {
	for _, s := range m.data.Sessions {
		if s.ID == session {
			return s.Project
		}
	}
	return ""
}
