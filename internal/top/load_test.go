package top

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/atreides-dev/atreides/internal/dashboard"
	"github.com/atreides-dev/atreides/internal/view/viewtest"
)

// TestLoad reads the read model's fixture project through the dashboard's
// server, as atreides top does: its sessions, the trail's records, and
// for a focused session its timeline; the screen then shows them.
func TestLoad(t *testing.T) {
	root := viewtest.Project(t)
	srv := dashboard.New(dashboard.Config{Root: root})
	t.Cleanup(srv.Close)
	l := loader{src: srv, root: root, trail: dashboard.Trail}

	d, err := l.load(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sessions) != 2 || d.Sessions[0].ID != viewtest.Active {
		t.Errorf("sessions %+v, want the fixture's two, the active first", d.Sessions)
	}
	if len(d.Decisions) != 7 || d.Decisions[6].HostEvent != "Stop" || !d.Decisions[6].Block {
		t.Errorf("%d decisions, the last %+v; want the fixture's 7, oldest first", len(d.Decisions), d.Decisions)
	}
	if d.Focus != "" || d.Items != nil {
		t.Errorf("a timeline read without a focus: %q, %d items", d.Focus, len(d.Items))
	}

	d, err = l.load(context.Background(), viewtest.Active)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Todos) == 0 || len(d.Todos) != d.Sessions[0].OpenTodos {
		t.Errorf("%d open todos read, the session's row counts %d", len(d.Todos), d.Sessions[0].OpenTodos)
	}
	var titles []string
	for _, it := range d.Items {
		titles = append(titles, it.Title)
	}
	if all := strings.Join(titles, "\n"); d.Focus != viewtest.Active || !strings.Contains(all, "cat .env") || strings.Contains(all, "README.md") {
		t.Errorf("the active session's timeline:\n%s", all)
	}

	m := newModel(func(string) tea.Cmd { return nil }, false)
	m = step(t, m, dataMsg{data: d})
	m = step(t, m, key("enter"))
	m = step(t, m, dataMsg{data: d})
	for _, k := range []string{"/", "e", "n", "v", "enter"} {
		m = step(t, m, key(k))
	}
	if s := screen(m); !strings.Contains(s, "cat .env") || !strings.Contains(s, "secrets.read") {
		t.Errorf("the session's screen:\n%s", s)
	}

	if _, err := l.load(context.Background(), "no-such-session"); err != nil {
		t.Errorf("a focus on a session that is gone: %v", err)
	}
}
