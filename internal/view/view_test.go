package view_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/atreides-dev/atreides/internal/view/viewtest"
)

func take(t *testing.T, root string, o view.Options) *view.Snapshot {
	t.Helper()
	s, err := view.Take(context.Background(), root, o)
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's clock, not the machine's: activity and leases are
	// judged against it.
	s.Taken = viewtest.At(45)
	return s
}

func TestSessionRows(t *testing.T) {
	s := take(t, viewtest.Project(t), view.Options{})
	rows := s.SessionRows()
	if len(rows) != 2 || rows[0].ID != viewtest.Active || rows[1].ID != viewtest.Ended {
		t.Fatalf("rows not newest first: %+v", rows)
	}
	a, e := rows[0], rows[1]
	if !a.Active || e.Active {
		t.Errorf("active = %v, %v; want the open session active and the ended one not", a.Active, e.Active)
	}
	if a.Phase != phase.Implementation || a.Subagents != 2 || a.Running != 1 || a.Task != 1 {
		t.Errorf("active row = %+v", a)
	}
	// One agent todo in progress, atreides's todo 1 in progress (todo 2 is done).
	if a.OpenTodos != 2 {
		t.Errorf("open todos = %d, want 2", a.OpenTodos)
	}
	if a.Background != 0 {
		t.Errorf("background pending = %d, want 0 (bg-1 completed)", a.Background)
	}
}

func TestTimelineMergesTrailAndState(t *testing.T) {
	root := viewtest.Project(t)
	s := take(t, root, view.Options{})
	trail := audit.New(project.StateDir(root), nil)
	items, err := s.Timeline(trail, viewtest.Active, view.TimelineFilter{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for i, it := range items {
		kinds[it.Kind]++
		if i > 0 && it.Time.Before(items[i-1].Time) {
			t.Fatalf("item %d (%s) is before the one ahead of it", i, it.Title)
		}
	}
	want := map[string]int{"tool": 5, "decision": 1, "phase": 2, "delegation_start": 2, "delegation_stop": 1, "todo_open": 2, "todo_close": 1, "background": 2}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("%d %s items, want %d (all: %v)", kinds[k], k, n, kinds)
		}
	}
	deny := items[slices.IndexFunc(items, func(it view.Item) bool { return it.Verdict == "deny" })]
	if deny.Rule != "secrets.read" || deny.Title != "Bash: cat .env" || deny.Detail == "" {
		t.Errorf("the denial reads %+v", deny)
	}

	// Since keeps what came after; Limit the newest.
	later, _ := s.Timeline(trail, viewtest.Active, view.TimelineFilter{Since: viewtest.At(30)})
	for _, it := range later {
		if !it.Time.After(viewtest.At(30)) {
			t.Errorf("since: %s at %s kept", it.Title, it.Time)
		}
	}
	if len(later) != 2 { // the stop kept going, stilgar started
		t.Errorf("since 30 min: %d items, want 2: %+v", len(later), later)
	}
	last, _ := s.Timeline(trail, viewtest.Active, view.TimelineFilter{Limit: 1})
	if len(last) != 1 || last[0].Kind != "delegation_start" {
		t.Errorf("limit 1: %+v", last)
	}
}

func TestTimelinePrefersMarks(t *testing.T) {
	root := viewtest.Project(t)
	// A phase mark in the trail: the state's transition of that second is
	// not shown beside it; the one the trail did not mark is.
	ev := &event.Event{Kind: event.PostTool, Host: "claude", SessionID: viewtest.Active, HostEvent: "PostToolUse", Time: viewtest.At(10)}
	viewtest.Record(t, root, ev, &event.Decision{})
	line := `{"time":"2026-11-20T09:10:00.500000Z","host":"claude","session":"` + viewtest.Active + `","event":"post_tool","host_event":"PostToolUse","tool":"Edit","verdict":"none","rule":"","block":false,"total_us":1,"marks":[{"kind":"phase","text":"exploration → implementation"}]}` + "\n"
	appendLine(t, root, line)
	s := take(t, root, view.Options{})
	items, err := s.Timeline(audit.New(project.StateDir(root), nil), viewtest.Active, view.TimelineFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var phases []view.Item
	for _, it := range items {
		if it.Kind == "phase" {
			phases = append(phases, it)
		}
	}
	if len(phases) != 2 || phases[0].Source != "state" || phases[1].Source != "audit" {
		t.Errorf("phase items %+v, want the unmarked one from the state and the marked one from the trail", phases)
	}
}

func TestGovernance(t *testing.T) {
	root := viewtest.Project(t)
	for _, tc := range []struct {
		lease   time.Duration
		expired bool
	}{{0, false}, {30 * time.Minute, false}, {2 * time.Minute, true}} {
		g := take(t, root, view.Options{Lease: tc.lease}).Governance()
		if g.IntentsError != "" || len(g.Intents) != 2 {
			t.Fatalf("intents %+v (%s)", g.Intents, g.IntentsError)
		}
		auth := g.Intents[0]
		if auth.ID != "auth" || auth.Lease == nil || auth.Lease.Session != viewtest.Active {
			t.Fatalf("auth = %+v", auth)
		}
		if auth.Lease.Expired != tc.expired || g.Intents[1].Lease != nil {
			t.Errorf("lease %v: expired = %v, want %v", tc.lease, auth.Lease.Expired, tc.expired)
		}
		if len(g.Expansions) != 1 || g.Expansions[0].Status != "pending" {
			t.Errorf("expansions %+v", g.Expansions)
		}
	}
}

func TestLedger(t *testing.T) {
	s := take(t, viewtest.Project(t), view.Options{})
	l := s.Ledger(view.LedgerFilter{})
	if !l.Verify.OK || l.Verify.Records != 2 {
		t.Fatalf("verify = %+v", l.Verify)
	}
	if len(l.Records) != 2 || l.Records[1].Prev != l.Records[0].Hash || l.Records[1].Change != "modify" {
		t.Errorf("records %+v", l.Records)
	}
	if len(l.Files) != 1 || l.Files[0].Key != "src/auth/login.go" || l.Files[0].Records != 2 || l.Intents[0].Key != "auth" {
		t.Errorf("by file %+v, by intent %+v", l.Files, l.Intents)
	}
	if f := s.Ledger(view.LedgerFilter{File: "other.go"}); len(f.Records) != 0 || f.Total != 0 {
		t.Errorf("a file with no changes gave %+v", f.Records)
	}
	if f := s.Ledger(view.LedgerFilter{Limit: 1}); len(f.Records) != 1 || f.Records[0].Seq != 2 || f.Total != 2 {
		t.Errorf("limit 1 gave %+v (total %d)", f.Records, f.Total)
	}
}

func TestDecisionsFilterAndLimit(t *testing.T) {
	root := viewtest.Project(t)
	trail := audit.New(project.StateDir(root), nil)
	recs, total, err := view.Decisions(trail, audit.Filter{Verdicts: []string{"deny"}}, 0)
	if err != nil || total != 1 || recs[0].Rule != "secrets.read" {
		t.Fatalf("denials: %+v, %d, %v", recs, total, err)
	}
	recs, total, _ = view.Decisions(trail, audit.Filter{Session: viewtest.Active}, 2)
	if total != 7 || len(recs) != 2 || recs[1].Event != "stop" || recs[0].Rule != "git.force-push" {
		t.Errorf("newest 2 of the session: %+v (total %d)", recs, total)
	}
}

func TestDamagedAndQuarantined(t *testing.T) {
	root := viewtest.Project(t)
	viewtest.Quarantine(t, root, "sess-broken")
	s := take(t, root, view.Options{})
	if len(s.Quarantined) != 1 || s.Quarantined[0].Key != "sess-broken" {
		t.Errorf("quarantined %+v", s.Quarantined)
	}
	// A record damaged after the last event is reported, and hides
	// nothing else.
	viewtest.Update(t, root, func(tx *store.Tx) error { return tx.PutRecord("sessions", "sess-torn", []byte("garbage")) })
	s = take(t, root, view.Options{})
	if len(s.Damaged) != 1 || s.Damaged[0].Key != "sess-torn" || len(s.Sessions) != 2 {
		t.Errorf("damaged %v, %d sessions", s.Damaged, len(s.Sessions))
	}
}

func TestAnchorsStale(t *testing.T) {
	s := take(t, viewtest.Project(t), view.Options{StaleAfter: 72 * time.Hour})
	as := s.Anchors(viewtest.Active)
	if len(as) != 2 || as[0].Stale || !as[1].Stale {
		t.Errorf("anchors %+v", as)
	}
}

// TestAnchorStalenessAgrees: the session snapshot's anchors (dashboard,
// MCP status, export) and the project's (status, anchor list) mark the
// same anchors stale, as the memory re-injected into the agent does: an
// unset threshold is the configuration's default, not "never" nor "at once".
func TestAnchorStalenessAgrees(t *testing.T) {
	root := viewtest.Project(t)
	// The fixture's anchors are 40 minutes and ten days old at the snapshot.
	tests := []struct {
		after time.Duration
		want  []bool
	}{
		{0, []bool{false, true}}, // the default, 48 hours
		{30 * time.Minute, []bool{true, true}},
		{72 * time.Hour, []bool{false, true}},
		{1000 * time.Hour, []bool{false, false}},
	}
	for _, tt := range tests {
		s := take(t, root, view.Options{StaleAfter: tt.after})
		var snap, proj []bool
		for _, a := range s.Anchors("") {
			snap = append(snap, a.Stale)
		}
		for _, a := range view.Anchors(anchors.Key.Read(s.Project).List, tt.after, s.Taken) {
			proj = append(proj, a.Stale)
		}
		if !slices.Equal(snap, tt.want) || !slices.Equal(proj, tt.want) {
			t.Errorf("stale after %v: session view %v, project view %v, want %v", tt.after, snap, proj, tt.want)
		}
	}
}

func appendLine(t *testing.T, root, line string) {
	t.Helper()
	f, err := os.OpenFile(audit.New(project.StateDir(root), nil).Path(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
}
