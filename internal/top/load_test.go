package top

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/atreides-dev/atreides/internal/dashboard"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/atreides-dev/atreides/internal/view/viewtest"
)

// TestLoad reads the read model's fixture project through the dashboard's
// server, as atreides top does: its sessions, the trail's records, and
// for a focused session its timeline; the screen then shows them.
func TestLoad(t *testing.T) {
	root := viewtest.Project(t)
	srv := dashboard.New(dashboard.Config{Root: root})
	t.Cleanup(srv.Close)
	l := loader{src: srv, roots: []string{root}, trail: dashboard.Trail}

	d, err := l.load(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sessions) != 2 || d.Sessions[0].ID != viewtest.Active {
		t.Errorf("sessions %+v, want the fixture's two, the active first", d.Sessions)
	}
	if len(d.Decisions) != 8 || d.Decisions[7].HostEvent != "Stop" || !d.Decisions[7].Block {
		t.Errorf("%d decisions, the last %+v; want the fixture's 8, oldest first", len(d.Decisions), d.Decisions)
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

// TestLoadAll: two projects' sessions and decisions, merged newest
// first; a project that cannot be read is left out with its error.
func TestLoadAll(t *testing.T) {
	a, b := viewtest.Project(t), viewtest.Project(t)
	srv := dashboard.New(dashboard.Config{Root: a})
	t.Cleanup(srv.Close)
	l := loader{src: srv, roots: []string{a, b}, trail: dashboard.Trail}
	d, err := l.load(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sessions) != 4 || len(d.Decisions) != 16 || len(d.Roots) != 2 {
		t.Fatalf("%d sessions, %d decisions of %d projects; want 4, 16, 2", len(d.Sessions), len(d.Decisions), len(d.Roots))
	}
	for i := 1; i < len(d.Sessions); i++ {
		if d.Sessions[i].Updated.After(d.Sessions[i-1].Updated) {
			t.Errorf("sessions not newest first: %v after %v", d.Sessions[i].Updated, d.Sessions[i-1].Updated)
		}
	}
	for i := 1; i < len(d.Decisions); i++ {
		if d.Decisions[i].Time.Before(d.Decisions[i-1].Time) {
			t.Errorf("decisions not oldest first at %d", i)
		}
	}
	projects := map[string]int{}
	for _, s := range d.Sessions {
		projects[s.Project]++
	}
	if projects[a] != 2 || projects[b] != 2 {
		t.Errorf("sessions by project: %v", projects)
	}

	l.src = failing{Source: srv, bad: b}
	d, err = l.load(context.Background(), "")
	if len(d.Sessions) != 2 || err == nil || !strings.Contains(err.Error(), b) {
		t.Errorf("a project that cannot be read: %d sessions kept, error %v", len(d.Sessions), err)
	}
	l.roots = []string{b, a}
	if d, err = l.load(context.Background(), ""); err == nil || d.Sessions != nil {
		t.Errorf("the project top was started in cannot be read: %v, %d sessions", err, len(d.Sessions))
	}
}

// failing is a source whose snapshot of bad fails.
type failing struct {
	Source
	bad string
}

func (f failing) Snapshot(ctx context.Context, root string) (*view.Snapshot, error) {
	if root == f.bad {
		return nil, errors.New("locked")
	}
	return f.Source.Snapshot(ctx, root)
}
