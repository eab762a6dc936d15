package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/ctxbudget"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// TestContextAcrossProcesses: context registered on an event that cannot
// carry it (a Stop) is delivered by the next event of the same agent that
// can, in another process (a fresh store and engine on the same
// directory), once; a once-only entry is not delivered again by a later
// process, until a compaction.
func TestContextAcrossProcesses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	t0 := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	register := Handler{Name: "reg", Priority: Normal, Handle: func(c *Call) (event.Result, error) {
		switch c.Event.Kind {
		case event.Stop:
			return event.Result{Context: event.Note("task", "t1", event.High, "background task t1 finished")}, nil
		case event.PostTool:
			return event.Result{Context: []event.Entry{{Source: "rules", ID: "pkg/AGENTS.md", Priority: event.Normal, Text: "pkg rules", Once: true}}}, nil
		}
		return event.Result{}, nil
	}}
	process := func(i int, k event.Kind, agent string, cap int) string {
		e := New(StoreLoader{Store: store.Open(dir)}, &testEnv{}, register)
		d := e.Run(context.Background(), &event.Event{Kind: k, SessionID: "s", AgentID: agent, ContextCap: cap, Time: t0.Add(time.Duration(i) * time.Second)})
		return d.ContextText()
	}
	steps := []struct {
		kind  event.Kind
		agent string
		cap   int
		want  string
	}{
		{event.Stop, "", 0, ""},
		{event.PostTool, "sub", 10000, "pkg rules"}, // a subagent's event: the lead's entry waits
		{event.PostTool, "", 10000, "background task t1 finished\n\npkg rules"},
		{event.PostTool, "", 10000, ""},
		{event.PostCompact, "", 0, ""},
		{event.PostTool, "", 10000, "pkg rules"},
	}
	for i, s := range steps {
		if got := process(i, s.kind, s.agent, s.cap); got != s.want {
			t.Errorf("step %d (%s, agent %q): carried %q, want %q", i, s.kind, s.agent, got, s.want)
		}
	}
}

// TestSessionBudget: what events carry is counted in the session record
// across processes, per kind; once the session budget is spent, a normal
// entry is dropped (and counted as dropped) while a high one still goes;
// the spent budget is logged once.
func TestSessionBudget(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	t0 := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	register := Handler{Name: "reg", Priority: Normal, Handle: func(c *Call) (event.Result, error) {
		return event.Result{Context: []event.Entry{
			{Source: "phase", Priority: event.Normal, Text: "phase: 30 bytes of guidance..."},
			{Source: "strikes", Priority: event.High, Text: "strike"},
		}}, nil
	}}
	env := &testEnv{}
	run := func(i int) string {
		e := New(StoreLoader{Store: store.Open(dir)}, env, register)
		e.SessionBudget = func() int { return 50 }
		d := e.Run(context.Background(), &event.Event{Kind: event.PostTool, SessionID: "s", ContextCap: 10000, Time: t0.Add(time.Duration(i) * time.Second)})
		return d.ContextText()
	}
	if got := run(0); got != "strike\n\nphase: 30 bytes of guidance..." {
		t.Fatalf("within budget: %q", got)
	}
	if got := run(1); got != "strike" {
		t.Fatalf("over budget: %q, want the high entry only", got)
	}
	run(2)
	if n := len(env.logs); n != 1 || !strings.Contains(env.logs[0], "context budget of 50 bytes") {
		t.Fatalf("logged %q, want the spent budget said once", env.logs)
	}
	var acct *ctxbudget.State
	if err := store.Open(dir).View(context.Background(), func(tx *store.Tx) error {
		s, err := state.FindSession(tx, "s")
		if err == nil {
			acct = ctxbudget.Key.Read(s)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if acct.Total != 48 || acct.Dropped != 60 || acct.Budget != 50 || len(acct.Kinds) != 2 || acct.Kinds[1].Dropped != 60 || acct.Kinds[0].Times != 3 {
		t.Fatalf("accounting %+v", acct)
	}
}
