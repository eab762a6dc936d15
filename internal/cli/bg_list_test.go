package cli

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
)

// bg, bare, lists the project's background tasks as 'bg list' does: one
// tab-separated row each when piped; show takes a number or the start of
// an id, and an ambiguous start is a usage error naming the matches.
func TestBgListAndIDs(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(dir+"/.git", 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	start := time.Now().Add(-time.Minute)
	end := start.Add(30 * time.Second)
	err := command.UpdateProjectAt(dir, func(p *state.Project) error {
		b := bgtasks.Key.Of(p)
		b.NextID = 12
		b.Tasks = append(b.Tasks,
			bgtasks.Task{ID: "bg-1", Agent: "explore", Description: "map the auth code", Status: "completed", Created: start, Started: start, Ended: end, Notified: true},
			bgtasks.Task{ID: "bg-11", Agent: "oracle", Description: "review the plan", Status: "failed", Error: "exit status 1", Created: start, Started: start, Ended: end, Notified: true})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"bg"}, {"bg", "list"}} {
		out, err := runIn(t, dir, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "bg-1\tcompleted\texplore\t") || !strings.HasSuffix(lines[0], "\tmap the auth code\t") ||
			!strings.HasPrefix(lines[1], "bg-11\tfailed\toracle\t") || !strings.HasSuffix(lines[1], "\treview the plan\texit status 1") {
			t.Errorf("%v:\n%s", args, out)
		}
	}
	for arg, want := range map[string]string{"1": "map the auth code", "bg-11": "review the plan", "#11": "review the plan"} {
		if out, err := runIn(t, dir, "bg", "show", arg); err != nil || !strings.Contains(out, want) {
			t.Errorf("bg show %s: %v\n%s", arg, err, out)
		}
	}
	_, err = runIn(t, dir, "bg", "show", "bg-")
	var ue *command.UsageError
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "bg-1, bg-11") {
		t.Errorf("bg show bg-: %v, want an ambiguity naming bg-1 and bg-11", err)
	}
}

// intent requests lists the scope expansion requests, one row each.
func TestIntentRequestsTable(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(dir+"/.git", 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	err := command.UpdateProjectAt(dir, func(p *state.Project) error {
		g := govstate.Key.Of(p)
		g.Expansions = append(g.Expansions, govstate.ScopeRequest{ID: 1, Intent: "auth", Session: "s1", Paths: []string{"docs/a.md", "docs/b.md"}, Reason: "the docs\tchange too", Status: "pending", Time: time.Now()})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := runIn(t, dir, "intent", "requests")
	if want := "1\tpending\tauth\ts1\tdocs/a.md,docs/b.md\tthe docs change too\n"; err != nil || out != want {
		t.Errorf("intent requests: %v\n%q, want %q", err, out, want)
	}
}
