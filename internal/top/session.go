package top

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
)

// row is the selected session's row; false when it is gone.
func (m Model) row() (view.ProjectSession, bool) {
	for _, s := range m.data.Sessions {
		if s.ID == m.selected {
			return s, true
		}
	}
	return view.ProjectSession{}, false
}

// items are the session's timeline items the filter lets through,
// newest first (the view's timeline is oldest first).
func (m Model) items() []view.Item {
	if m.data.Focus != m.selected {
		return nil
	}
	var out []view.Item
	for i := len(m.data.Items) - 1; i >= 0; i-- {
		it := m.data.Items[i]
		if contains(m.filter, it.Kind, it.Title, it.Detail, it.Verdict, it.Rule, it.Tool, it.Agent) {
			out = append(out, it)
		}
	}
	return out
}

// sessionLines are a session's screen: what it is, its background tasks,
// its recent calls and decisions (the selected one in full at the
// bottom).
func (m Model) sessionLines() []string {
	s, ok := m.row()
	if !ok {
		return []string{m.header(), m.status(), m.paint("2", "  the session "+state.ShortID(m.selected, 0)+" is gone (esc: back)")}
	}
	c := s.Counters
	lines := []string{m.header(), m.status(),
		fmt.Sprintf("%s %s · %s%s · phase %s · %s · last event %s ago", m.paint("1", "session"), s.ID, m.projectName(s.Project), s.Host, s.Phase, sessionState(s.SessionRow), age(m.data.Taken, s.Updated)),
		fmt.Sprintf("  started %s · %s · %s · %d denied · %d asked · %d failed · %s · %s (%d running)",
			clock(m.data.Taken, s.Started, m.loc), plural(c.Prompts, "prompt"), plural(c.ToolCalls, "call"), c.Denied, c.Asked, c.Failed,
			plural(s.OpenTodos, "open todo"), plural(s.Subagents, "subagent"), s.Running),
	}
	if s.Task != 0 {
		lines = append(lines, fmt.Sprintf("  task #%d %s", s.Task, s.TaskTitle))
	}
	lines = append(lines, m.todoLines()...)
	if bg := m.background(s.ID); len(bg) > 0 {
		lines = append(lines, "", m.section("Background tasks"))
		for _, t := range bg {
			lines = append(lines, m.bgRow(t))
		}
	}
	lines = append(lines, "", m.section("Recent calls and decisions, newest first"))
	return append(lines, m.itemLines(m.height-len(lines)-5)...)
}

// itemLines are a window of room items around the selected one, then
// the selected item in full.
func (m Model) itemLines(room int) []string {
	items := m.items()
	if len(items) == 0 {
		if m.data.Focus != m.selected {
			return []string{m.paint("2", "  loading…")}
		}
		return []string{m.paint("2", "  nothing recorded yet")}
	}
	room = max(1, room)
	sel := clamp(m.item, 0, len(items)-1)
	first := max(0, sel-room+1)
	last := min(len(items), first+room)
	times := make([]time.Time, 0, last-first)
	for _, it := range items[first:last] {
		times = append(times, it.Time)
	}
	cw := clockWidth(m.data.Taken, m.loc, times)
	var out []string
	for i := first; i < last; i++ {
		out = append(out, m.itemRow(items[i], i == sel, cw))
	}
	it := items[sel]
	out = append(out, "", m.paint("1", "  "+relative(m.rootOf(m.selected), oneLine(it.Title))))
	if it.Detail != "" {
		for _, l := range wrap(relative(m.rootOf(m.selected), oneLine(it.Detail)), m.width-4, 3) {
			out = append(out, "  "+l)
		}
	}
	var about []string
	if it.Rule != "" {
		about = append(about, "rule "+it.Rule)
	}
	if it.Agent != "" {
		about = append(about, "agent "+it.Agent)
	}
	if len(about) > 0 {
		out = append(out, m.paint("2", "  "+strings.Join(about, " · ")))
	}
	return out
}

// itemRow is one timeline item's line: its title without the tool's
// name in front (the tool has its column), paths relative to the project.
func (m Model) itemRow(it view.Item, selected bool, cw int) string {
	title := relative(m.rootOf(m.selected), oneLine(strings.TrimPrefix(it.Title, it.Tool+": ")))
	head := cell(clock(m.data.Taken, it.Time, m.loc), cw) + cell(it.Kind, 15)
	tail := cell(it.Tool, 13) + title
	if selected {
		return m.paint("7", "▸ "+cell(head+cell(it.Verdict, 6)+tail, max(10, m.width-2)))
	}
	return "  " + head + m.paint(verdictColor(it.Verdict), cell(it.Verdict, 6)) + tail
}

// todoLines are the session's open todos (what keeps it going) and its
// strikes (the same failure again and again), a few lines each.
func (m Model) todoLines() []string {
	if m.data.Focus != m.selected {
		return nil
	}
	var out []string
	if n := len(m.data.Todos); n > 0 {
		out = append(out, "", m.section("Open todos"))
		for i, t := range m.data.Todos {
			if i == 4 && n > 5 {
				out = append(out, m.paint("2", fmt.Sprintf("  … %d more (atreides todo)", n-i)))
				break
			}
			id := ""
			if t.ID != 0 {
				id = fmt.Sprintf("#%d ", t.ID)
			}
			out = append(out, "  "+cell(t.Source, 9)+cell(t.Status, 12)+id+oneLine(t.Title))
		}
	}
	if len(m.data.Strikes) > 0 {
		out = append(out, "", m.section("Strikes"))
		for i, st := range m.data.Strikes {
			if i == 3 {
				break
			}
			out = append(out, "  "+m.paint("31", cell(fmt.Sprintf("%d×", st.Count), 4))+cell(st.Tool, 13)+
				cell(st.Class, 14)+relative(m.rootOf(m.selected), oneLine(st.Target)))
		}
	}
	return out
}

// projectName is "<project> · " when the screen shows several projects.
func (m Model) projectName(root string) string {
	if len(m.data.Roots) < 2 {
		return ""
	}
	return filepath.Base(root) + " · "
}
