package top

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/charmbracelet/x/ansi"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// fixture is a project with an active session of one host and an ended
// one of another, three decisions and a background task.
func fixture() Data {
	return Data{
		Root: "/work/proj", Roots: []string{"/work/proj"}, Taken: t0,
		Sessions: []view.ProjectSession{
			{Project: "/work/proj", SessionRow: view.SessionRow{ID: "aaaa1111-2222-3333", Host: "claude", Phase: "implement", Active: true, Updated: t0.Add(-3 * time.Second),
				Counters: state.Counters{ToolCalls: 12, Denied: 1, Asked: 2}, OpenTodos: 2, Background: 1, Task: 3, TaskTitle: "Fix the parser"}},
			{Project: "/work/proj", SessionRow: view.SessionRow{ID: "bbbb9999-8888", Host: "codex", Phase: "explore", Ended: "exit", Updated: t0.Add(-2 * time.Hour)}},
		},
		Decisions: []audit.Row{
			{Time: t0.Add(-time.Minute), Session: "bbbb9999-8888", Host: "codex", HostEvent: "PreToolUse", Tool: "shell", Verdict: "allow", Target: "ls -la /work/proj/src"},
			{Time: t0.Add(-30 * time.Second), Session: "aaaa1111-2222-3333", Host: "claude", HostEvent: "PreToolUse", Tool: "Bash", Verdict: "deny", Rule: "git.push-force", Target: "git push --force origin main"},
			{Time: t0.Add(-10 * time.Second), Session: "aaaa1111-2222-3333", Host: "claude", HostEvent: "Stop", Verdict: "none", Block: true, Marks: "todo: 2 open"},
		},
		Background: []view.BgTask{{ID: "bg-7", Parent: "aaaa1111-2222-3333", Agent: "explore", Status: "running", Runtime: "2m", Description: "map the tests"}},
	}
}

// items is the active session's timeline, oldest first.
func items() []view.Item {
	return []view.Item{
		{Time: t0.Add(-40 * time.Second), Kind: "phase", Title: "phase implement"},
		{Time: t0.Add(-30 * time.Second), Kind: "tool", Title: "Bash: git push --force origin main", Detail: "force push rewrites remote history", Verdict: "deny", Rule: "git.push-force", Tool: "Bash"},
		{Time: t0.Add(-20 * time.Second), Kind: "tool", Title: "go test ./...", Verdict: "allow", Tool: "Bash"},
	}
}

// loads records the loads a model asked for and answers them.
type loads struct {
	focus []string
	data  Data
}

func (l *loads) load(focus string) tea.Cmd {
	l.focus = append(l.focus, focus)
	return func() tea.Msg {
		d := l.data
		if focus != "" {
			d.Focus, d.Items = focus, items()
			d.Todos = []view.SessionTodo{{Source: "atreides", ID: 4, Title: "write the report", Status: "in_progress", Open: true}}
			d.Strikes = []view.Strike{{Tool: "Bash", Target: "go test /work/proj/...", Count: 3, Class: "test_failure"}}
		}
		return dataMsg{data: d}
	}
}

func key(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// started is a model that has loaded the fixture, on a 100x30 terminal
// without colours, in UTC.
func started(t *testing.T) (Model, *loads) {
	t.Helper()
	l := &loads{data: fixture()}
	m := newModel(l.load, false)
	m.loc = time.UTC
	cmd := m.Init()
	if cmd == nil {
		t.Fatal("Init started nothing")
	}
	m = step(t, m, l.load("")())
	return m, l
}

// step feeds msg and runs the command it returns when that is a load
// (a load's message is fed back, as the program would).
func step(t *testing.T, m Model, msg tea.Msg) Model {
	t.Helper()
	next, cmd := m.Update(msg)
	m = next.(Model)
	if cmd != nil {
		if d, ok := cmd().(dataMsg); ok {
			return step(t, m, d)
		}
	}
	return m
}

func screen(m Model) string { return ansi.Strip(m.render()) }

// selectedLine is the line the selection marker is on.
func selectedLine(m Model) string {
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.HasPrefix(l, "▸ ") {
			return l
		}
	}
	return ""
}

func TestListScreen(t *testing.T) {
	m, _ := started(t)
	s := screen(m)
	for _, want := range []string{
		"atreides top · proj · 2 sessions, 1 active · 1 background · updated 12:00:00",
		"SESSION", "aaaa1111", "claude", "implement", "active", "#3 Fix the parser",
		"bbbb9999", "codex", "ended", "2h",
		"Decisions, newest first", "deny", "git push --force origin main", "git.push-force",
		"block", "todo: 2 open", "ls -la src",
		"Background tasks", "bg-7", "running", "map the tests",
		"j/k move · enter open · / filter · ? help · q quit",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the screen lacks %q:\n%s", want, s)
		}
	}
	// Newest decision first.
	if strings.Index(s, "todo: 2 open") > strings.Index(s, "git push --force") || strings.Index(s, "git push --force") > strings.Index(s, "ls -la") {
		t.Errorf("decisions are not newest first:\n%s", s)
	}
	if !strings.Contains(selectedLine(m), "aaaa1111") {
		t.Errorf("the first session is not selected: %q", selectedLine(m))
	}
	if n := len(strings.Split(m.render(), "\n")); n != 30 {
		t.Errorf("the screen has %d lines, want the terminal's 30", n)
	}
}

func TestKeys(t *testing.T) {
	for _, tc := range []struct {
		name     string
		keys     []string
		selected string // on the marked line ("" none)
		mode     mode
		shows    []string
		hides    []string
	}{
		{"down", []string{"j"}, "bbbb9999", modeList, nil, nil},
		{"arrow down", []string{"down"}, "bbbb9999", modeList, nil, nil},
		{"not past the end", []string{"j", "j", "j"}, "bbbb9999", modeList, nil, nil},
		{"up", []string{"j", "k"}, "aaaa1111", modeList, nil, nil},
		{"not before the start", []string{"up", "k"}, "aaaa1111", modeList, nil, nil},
		{"last, first", []string{"G"}, "bbbb9999", modeList, nil, nil},
		{"open", []string{"enter"}, "go test", modeSession,
			[]string{"session aaaa1111-2222-3333 · claude · phase implement · active", "12 calls · 1 denied · 2 asked", "task #3 Fix the parser",
				"Recent calls and decisions, newest first", "phase implement", "esc back",
				"Open todos", "atreides in_progress #4 write the report", "Strikes", "3×  Bash         test_failure  go test ..."}, []string{"SESSION"}},
		{"open, move, the item in full", []string{"enter", "j"}, "Bash         git push --force", modeSession,
			[]string{"Bash: git push --force origin main\n  force push rewrites remote history\n  rule git.push-force\n"}, []string{"started 01-01", "· agent"}},
		{"open, back", []string{"enter", "esc"}, "aaaa1111", modeList, []string{"SESSION"}, []string{"Recent calls"}},
		{"open, back with q", []string{"enter", "q"}, "aaaa1111", modeList, []string{"SESSION"}, nil},
		{"filter", []string{"/", "c", "o", "d", "enter"}, "bbbb9999", modeList, []string{"filter /cod (esc clears)", "ls -la"}, []string{"aaaa1111", "git push"}},
		{"filter typed", []string{"/", "c", "o"}, "", modeList, []string{"/co█", "enter keep · esc clear"}, nil},
		{"filter corrected", []string{"/", "x", "backspace", "c", "o", "d", "enter"}, "bbbb9999", modeList, []string{"filter /cod"}, nil},
		{"filter dropped", []string{"/", "c", "o", "d", "esc"}, "bbbb9999", modeList, []string{"bbbb9999"}, []string{"filter /"}},
		{"filter cleared with esc", []string{"/", "c", "o", "d", "enter", "esc"}, "bbbb9999", modeList, []string{"bbbb9999"}, []string{"filter /"}},
		{"filter in a session", []string{"enter", "/", "p", "u", "s", "h", "enter"}, "git push", modeSession, nil, []string{"go test ./..."}},
		{"help", []string{"?"}, "", modeHelp, []string{"atreides top: keys", "enter, l", "any key: back"}, nil},
		{"help, back", []string{"j", "?", "x"}, "bbbb9999", modeList, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := started(t)
			for _, k := range tc.keys {
				m = step(t, m, key(k))
			}
			if m.mode != tc.mode {
				t.Errorf("mode %d, want %d", m.mode, tc.mode)
			}
			if got := selectedLine(m); tc.selected != "" && !strings.Contains(got, tc.selected) {
				t.Errorf("the marked line is %q, want it to name %q\n%s", got, tc.selected, screen(m))
			}
			s := screen(m)
			for _, w := range tc.shows {
				if !strings.Contains(s, w) {
					t.Errorf("the screen lacks %q:\n%s", w, s)
				}
			}
			for _, w := range tc.hides {
				if strings.Contains(s, w) {
					t.Errorf("the screen shows %q:\n%s", w, s)
				}
			}
		})
	}
}

func TestQuit(t *testing.T) {
	for _, keys := range [][]string{{"q"}, {"esc"}, {"ctrl+c"}, {"enter", "ctrl+c"}, {"/", "c", "enter", "esc", "esc"}} {
		t.Run(strings.Join(keys, ","), func(t *testing.T) {
			m, _ := started(t)
			var cmd tea.Cmd
			for _, k := range keys {
				var next tea.Model
				next, cmd = m.Update(key(k))
				m = next.(Model)
			}
			if cmd == nil {
				t.Fatal("no command: the program goes on")
			}
			if _, ok := cmd().(tea.QuitMsg); !ok {
				t.Fatalf("the last key did not quit")
			}
		})
	}
}

// TestOpenLoadsTheSession: opening a session loads its timeline; a
// change while the session is open reloads it, not the list alone.
func TestOpenLoadsTheSession(t *testing.T) {
	m, l := started(t)
	m = step(t, m, key("enter"))
	m = step(t, m, changedMsg{})
	m = step(t, m, key("esc"))
	step(t, m, changedMsg{})
	want := []string{"", "", "aaaa1111-2222-3333", "aaaa1111-2222-3333", ""}
	if !slices.Equal(l.focus, want) {
		t.Errorf("loads for %q, want %q", l.focus, want)
	}
}

// TestChangesCoalesce: changes while a load is in flight cost one load
// more, when it lands.
func TestChangesCoalesce(t *testing.T) {
	l := &loads{data: fixture()}
	m := newModel(l.load, false)
	m.Init()
	for range 5 {
		next, cmd := m.Update(changedMsg{})
		if cmd != nil {
			t.Fatal("a change during a load started another")
		}
		m = next.(Model)
	}
	next, cmd := m.Update(dataMsg{data: fixture()})
	m = next.(Model)
	if cmd == nil || len(l.focus) != 2 {
		t.Fatalf("the load that landed after changes did not start one more (loads %q)", l.focus)
	}
	next, cmd = m.Update(dataMsg{data: fixture()})
	if cmd != nil {
		t.Fatal("a load without changes since started another")
	}
	if !strings.Contains(screen(next.(Model)), "aaaa1111") {
		t.Error("the loaded data is not shown")
	}
}

// TestNewEventShown: a load with a newer decision puts it first, and the
// selection stays on its session though the rows moved.
func TestNewEventShown(t *testing.T) {
	m, l := started(t)
	m = step(t, m, key("j"))
	d := fixture()
	d.Sessions = append([]view.ProjectSession{{Project: "/work/proj", SessionRow: view.SessionRow{ID: "cccc0000", Host: "gemini", Active: true, Updated: t0}}}, d.Sessions...)
	d.Decisions = append(d.Decisions, audit.Row{Time: t0, Session: "cccc0000", Tool: "run_shell_command", Verdict: "ask", Target: "terraform apply"})
	l.data = d
	m = step(t, m, changedMsg{})
	s := screen(m)
	if i, j := strings.Index(s, "terraform apply"), strings.Index(s, "git push"); i < 0 || i > j {
		t.Errorf("the new decision is not first:\n%s", s)
	}
	if !strings.Contains(selectedLine(m), "bbbb9999") {
		t.Errorf("the selection moved to %q", selectedLine(m))
	}
}

// TestLoadError: an error keeps what was shown and says why in the
// header.
func TestLoadError(t *testing.T) {
	m, _ := started(t)
	m = step(t, m, dataMsg{err: fmt.Errorf("read the project's state: locked")})
	s := screen(m)
	if !strings.Contains(s, "error: read the project's state: locked") || !strings.Contains(s, "aaaa1111") {
		t.Errorf("the error is not shown over the last data:\n%s", s)
	}
	m = step(t, m, dataMsg{data: fixture()})
	if strings.Contains(screen(m), "error:") {
		t.Error("the error stays after a load succeeded")
	}
}

// TestSmallTerminal: every line fits the terminal's width, and the footer
// stays on its last line.
func TestSmallTerminal(t *testing.T) {
	m, _ := started(t)
	for _, size := range [][2]int{{40, 12}, {20, 5}, {160, 50}} {
		m = step(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for _, mm := range []Model{m, step(t, m, key("enter"))} {
			lines := strings.Split(mm.render(), "\n")
			if len(lines) != size[1] {
				t.Errorf("%v: %d lines", size, len(lines))
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%v: a line of %d columns: %q", size, w, ansi.Strip(l))
				}
			}
			if last := ansi.Strip(lines[len(lines)-1]); !strings.Contains(last, "j/k") && !strings.Contains(last, "filter") {
				t.Errorf("%v: the last line is %q, not the keys", size, last)
			}
		}
	}
}

func TestEmpty(t *testing.T) {
	l := &loads{data: Data{Root: "/p", Roots: []string{"/p"}, Taken: t0}}
	m := newModel(l.load, false)
	if !strings.Contains(screen(m), "loading") {
		t.Errorf("before the first load: %q", screen(m))
	}
	m = step(t, m, l.load("")())
	s := screen(m)
	if !strings.Contains(s, "no sessions yet") || !strings.Contains(s, "none recorded yet") {
		t.Errorf("an empty project:\n%s", s)
	}
	m = step(t, m, key("enter"))
	if m.mode != modeList {
		t.Error("enter opened a session that is not there")
	}
}

// TestColour: verdicts are coloured only when the terminal takes colour;
// the selection is in reverse video either way.
func TestColour(t *testing.T) {
	l := &loads{data: fixture()}
	for _, color := range []bool{false, true} {
		m := newModel(l.load, color)
		m = step(t, m, l.load("")())
		s := m.render()
		if got := strings.Contains(s, "\x1b[31m"); got != color {
			t.Errorf("colour %v: red shown %v", color, got)
		}
		if !strings.Contains(s, "\x1b[7m▸") {
			t.Errorf("colour %v: the selection is not in reverse video", color)
		}
	}
}

// TestItemKept: in a session, an item selected below the newest stays
// selected as new items come; the newest, selected, follows them.
func TestItemKept(t *testing.T) {
	m, l := started(t)
	m = step(t, m, key("enter"))
	m = step(t, m, key("j")) // the git push, below the newest
	extra := view.Item{Time: t0, Kind: "tool", Title: "Bash: make lint", Verdict: "allow", Tool: "Bash"}
	next, _ := m.Update(dataMsg{data: func() Data {
		d := l.data
		d.Focus, d.Items = "aaaa1111-2222-3333", append(items(), extra)
		return d
	}()})
	m = next.(Model)
	if got := selectedLine(m); !strings.Contains(got, "git push") {
		t.Errorf("the selection moved off the item to %q", got)
	}
	m = step(t, m, key("g"))
	next, _ = m.Update(dataMsg{data: func() Data {
		d := l.data
		d.Focus, d.Items = "aaaa1111-2222-3333", append(items(), extra, view.Item{Time: t0.Add(time.Second), Kind: "tool", Title: "Bash: make test", Tool: "Bash"})
		return d
	}()})
	if got := selectedLine(next.(Model)); !strings.Contains(got, "make test") {
		t.Errorf("the newest selected does not follow new items: %q", got)
	}
}

// TestAllProjects: with more than one project the header counts them,
// and the sessions and decisions name each one's project.
func TestAllProjects(t *testing.T) {
	d := fixture()
	d.Roots = []string{"/work/proj", "/work/other"}
	d.Sessions[1].Project = "/work/other"
	l := &loads{data: d}
	m := newModel(l.load, false)
	m.loc = time.UTC
	m = step(t, m, l.load("")())
	s := screen(m)
	for _, want := range []string{"atreides top · 2 projects · 2 sessions", "PROJECT        SESSION", "other          bbbb9999", "proj           aaaa1111",
		"other          bbbb9999 allow"} {
		if !strings.Contains(s, want) {
			t.Errorf("the screen lacks %q:\n%s", want, s)
		}
	}
	m = step(t, m, key("/"))
	for _, k := range "other" {
		m = step(t, m, key(string(k)))
	}
	m = step(t, m, key("enter"))
	if s := screen(m); strings.Contains(s, "aaaa1111") || !strings.Contains(selectedLine(m), "bbbb9999") {
		t.Errorf("filtered by a project's name:\n%s", s)
	}
	m = step(t, m, key("enter"))
	if s := screen(m); !strings.Contains(s, "session bbbb9999-8888 · other · codex") {
		t.Errorf("the session's screen does not name its project:\n%s", s)
	}
	// One project: no project column.
	m, _ = started(t)
	if strings.Contains(screen(m), "PROJECT") {
		t.Error("a project column for one project")
	}
}
