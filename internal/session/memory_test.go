package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/todos"
)

func TestRenderStateBudget(t *testing.T) {
	now := t0
	o := testOptions()
	o.MemoryBudget = 1200
	var as []anchors.Anchor
	for i := range 30 {
		as = append(as, anchors.Anchor{ID: i + 1, Kind: "fact", Priority: "low", Text: fmt.Sprintf("low fact number %d with some padding text", i), Created: now.Add(-time.Hour)})
	}
	as = append(as,
		anchors.Anchor{ID: 100, Kind: "constraint", Priority: "critical", Text: "never deploy on friday", Created: now.Add(-100 * time.Hour)},
		anchors.Anchor{ID: 101, Kind: "decision", Priority: "high", Text: "fresh high decision", Created: now.Add(-time.Minute)},
		anchors.Anchor{ID: 102, Kind: "decision", Priority: "high", Text: "old high decision", Created: now.Add(-47 * time.Hour)},
	)
	snap := &compaction.Snapshot{Time: now, Phase: "implementation", Todos: []string{"#1 write the report"},
		Strikes: []strikes.Strike{{Tool: "shell", Target: "go test ./...", Count: 2, Class: "test-failure"}}}
	for i := range 10 {
		snap.LastCalls = append(snap.LastCalls, history.ToolCall{Time: now, Raw: "Bash", Outcome: "ok", Summary: fmt.Sprintf("echo %d", i)})
	}
	out := renderState(snap, withAnchors(as), "", nil, nil, o, now)
	if len(out) > o.MemoryBudget {
		t.Errorf("state block is %d bytes, budget %d", len(out), o.MemoryBudget)
	}
	for _, s := range []string{StateOpen, StateClose, "never deploy on friday", "#1 write the report", "go test ./...", "fresh high decision", "left out to fit"} {
		if !strings.Contains(out, s) {
			t.Errorf("state block lacks %q:\n%s", s, out)
		}
	}
	// critical first, then the fresher of two high anchors
	ci, fi, oi := strings.Index(out, "never deploy"), strings.Index(out, "fresh high"), strings.Index(out, "old high")
	if ci < 0 || fi < ci || (oi >= 0 && oi < fi) {
		t.Errorf("anchor order wrong (critical %d, fresh %d, old %d):\n%s", ci, fi, oi, out)
	}
	if !strings.Contains(out, "[critical, stale]") {
		t.Errorf("a critical anchor past its time is marked, not dropped:\n%s", out)
	}
	if strings.Contains(out, "low fact number 29") {
		t.Errorf("low anchors should have been left out before the todos and failures:\n%s", out)
	}
	// no item is cut: every line between the markers is whole
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "- ") && !strings.HasSuffix(l, ")") && !strings.Contains(l, "#1 write") {
			t.Errorf("cut line %q", l)
		}
	}
}

func TestStaleAnchorsDropped(t *testing.T) {
	o := testOptions()
	o.DropStale = true
	as := []anchors.Anchor{
		{ID: 1, Kind: "fact", Priority: "high", Text: "stale high", Created: t0.Add(-49 * time.Hour)},
		{ID: 2, Kind: "constraint", Priority: "critical", Text: "stale critical", Created: t0.Add(-49 * time.Hour)},
		{ID: 3, Kind: "fact", Priority: "low", Text: "fresh low", Created: t0.Add(-47 * time.Hour)},
	}
	out := renderState(&compaction.Snapshot{Time: t0}, withAnchors(as), "", nil, nil, o, t0)
	if strings.Contains(out, "stale high") {
		t.Errorf("stale non-critical anchor kept with drop_stale:\n%s", out)
	}
	if !strings.Contains(out, "[critical, stale] constraint: stale critical") || !strings.Contains(out, "[low] fact: fresh low") {
		t.Errorf("want the critical anchor marked and the fresh one kept:\n%s", out)
	}
}

func TestAnchorScore(t *testing.T) {
	o := testOptions()
	fresh, _, _ := anchorScore(anchors.Anchor{Priority: "medium", Created: t0}, o, t0)
	older, _, _ := anchorScore(anchors.Anchor{Priority: "medium", Created: t0.Add(-24 * time.Hour)}, o, t0)
	stale, isStale, _ := anchorScore(anchors.Anchor{Priority: "high", Created: t0.Add(-72 * time.Hour)}, o, t0)
	low, _, _ := anchorScore(anchors.Anchor{Priority: "low", Created: t0}, o, t0)
	if !(fresh > older && older > low && isStale && stale < older) {
		t.Errorf("scores: fresh %d, older %d, low %d, stale high %d (stale=%v)", fresh, older, low, stale, isStale)
	}
}

func startCall(t *testing.T, dir string, p *state.Project, before ...string) *engine.Call {
	t.Helper()
	ev := &event.Event{Kind: event.SessionStart, Host: "claude", Facts: testHosts["claude"], HostEvent: "SessionStart", Source: "startup", ProjectDir: dir, SessionID: "s", Time: t0}
	d := &event.Decision{}
	for _, b := range before {
		d.Context = append(d.Context, event.Entry{Source: "x", Text: b})
	}
	return &engine.Call{Event: ev, State: &engine.State{Session: state.NewSession("s", "claude", t0), Project: p}, Decision: d}
}

func TestRulesMissingAndBroken(t *testing.T) {
	opts := func() Options { return testOptions() }
	for name, content := range map[string]string{
		"":       "no AGENTS.md at the project root",
		"empty":  "the file is empty",
		"binary": "NUL bytes",
		"nohead": "no markdown heading",
		"latin1": "not valid UTF-8",
	} {
		dir := t.TempDir()
		switch name {
		case "empty":
			os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("  \n"), 0o644)
		case "binary":
			os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("# x\x00y"), 0o644)
		case "nohead":
			os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("just text\n"), 0o644)
		case "latin1":
			os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("# R\xe9gles\n"), 0o644)
		}
		c := startCall(t, dir, &state.Project{})
		r, err := startContext(c, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Warning, content) || !strings.Contains(event.JoinEntries(r.Context), "Rules (atreides defaults)") || !strings.Contains(event.JoinEntries(r.Context), Marker) {
			t.Errorf("%s: want a warning %q and the default rules, got warning %q context:\n%s", name, content, r.Warning, event.JoinEntries(r.Context))
		}
	}
}

func TestRulesRequiredSections(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("# Rules\n- a\n## testing\n- b\n"), 0o644)
	o := testOptions()
	o.RulesRequired = []string{"Rules", "Testing", "Security"}
	r, _ := startContext(startCall(t, dir, &state.Project{}), func() Options { return o })
	if !strings.Contains(r.Warning, `required section "Security" is missing`) || strings.Contains(r.Warning, "Testing") {
		t.Errorf("warning = %q", r.Warning)
	}
}

func TestRulesCacheAndIdentity(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "AGENTS.md")
	os.WriteFile(path, []byte("# Rules\n- use bbolt\n"), 0o644)
	o := testOptions()
	o.Prefix = true
	opts := func() Options { return o }
	p := &state.Project{}
	r, _ := startContext(startCall(t, dir, p), opts)
	for _, s := range []string{Marker, "You are Muad'Dib", `"[Muad'Dib]:"`, "Delegating to NAME", "Project rules (AGENTS.md)", "- use bbolt"} {
		if !strings.Contains(event.JoinEntries(r.Context), s) {
			t.Errorf("context lacks %q:\n%s", s, event.JoinEntries(r.Context))
		}
	}
	if ctx := event.JoinEntries(r.Context); strings.Contains(ctx, "Stilgar") || len(ctx) > defaultStartBudget {
		t.Errorf("the start names the roster or is over its budget (%d bytes):\n%s", len(ctx), ctx)
	}
	if r.Warning != "" || (*RulesKey.Of(p)) == nil || (*RulesKey.Of(p)).Text == "" {
		t.Fatalf("warning %q, cache %+v", r.Warning, (*RulesKey.Of(p)))
	}
	// Same size and mtime: the cache answers, the file is not read again.
	fi, _ := os.Stat(path)
	os.WriteFile(path, []byte("# Rules\n- use bolt!\n"), 0o644)
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	r, _ = startContext(startCall(t, dir, p), opts)
	if !strings.Contains(event.JoinEntries(r.Context), "use bbolt") {
		t.Errorf("cache not used:\n%s", event.JoinEntries(r.Context))
	}
	// A new mtime: read again.
	os.Chtimes(path, fi.ModTime().Add(time.Second), fi.ModTime().Add(time.Second))
	r, _ = startContext(startCall(t, dir, p), opts)
	if !strings.Contains(event.JoinEntries(r.Context), "use bolt!") {
		t.Errorf("changed file not re-read:\n%s", event.JoinEntries(r.Context))
	}
	o.Announce, o.Prefix = false, false
	r, _ = startContext(startCall(t, dir, p), opts)
	if strings.Contains(event.JoinEntries(r.Context), "[Muad'Dib]:") || strings.Contains(event.JoinEntries(r.Context), "Delegating to") {
		t.Errorf("prefix and announcements are off:\n%s", event.JoinEntries(r.Context))
	}
}

// TestStartContextBudget: with a start budget raised to 6000, a huge
// AGENTS.md after a state block still fits Claude Code's cap, loses whole
// sections only, and keeps the marker; with the default budget it is a
// pointer to the file, and the start fits 600 bytes.
func TestStartContextBudget(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("# Rules\n\nShort first section.\n")
	for i := range 40 {
		fmt.Fprintf(&b, "\n## Section %d\n\n```go\n// code %d\n## not a heading inside a fence\n```\n%s\n", i, i, strings.Repeat("word ", 60))
	}
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(b.String()), 0o644)
	stateBlock := StateOpen + "\n" + strings.Repeat("x", 3900) + "\n" + StateClose
	c := startCall(t, dir, &state.Project{}, stateBlock)
	r, _ := startContext(c, func() Options { return testOptions() })
	if got := event.JoinEntries(r.Context); len(got) > defaultStartBudget || !strings.HasSuffix(got, "Project rules: AGENTS.md (read it before changing code).") {
		t.Errorf("default budget: %d bytes:\n%s", len(got), got)
	}
	big := testOptions()
	big.StartBudget = 6000
	r, _ = startContext(c, func() Options { return big })
	total := len(stateBlock) + 2 + len(event.JoinEntries(r.Context))
	if total > ContextCap {
		t.Errorf("total context %d > cap %d", total, ContextCap)
	}
	if !strings.HasPrefix(event.JoinEntries(r.Context), Marker) || !strings.Contains(event.JoinEntries(r.Context), "Short first section.") || !strings.Contains(event.JoinEntries(r.Context), "section(s) of the rules file left out") {
		t.Errorf("context:\n%s", event.JoinEntries(r.Context))
	}
	if strings.Count(event.JoinEntries(r.Context), "```")%2 != 0 {
		t.Errorf("a code fence was cut:\n%s", event.JoinEntries(r.Context))
	}
}

func TestFitSectionsFirstTooLong(t *testing.T) {
	text := "# One\n\npara one " + strings.Repeat("a", 50) + "\n\npara two " + strings.Repeat("b", 300) + "\n## Two\nx"
	got := fitSections(text, 200)
	if len(got) > 200 || !strings.Contains(got, "para one") || strings.Contains(got, "para two") || !strings.Contains(got, "cut to fit") {
		t.Errorf("fitSections = %q", got)
	}
}

// TestStale: an anchor is stale once strictly older than the threshold;
// an unset threshold is the default of 48 hours.
func TestStale(t *testing.T) {
	tests := []struct {
		age, after time.Duration
		want       bool
	}{
		{time.Hour, 2 * time.Hour, false},
		{2 * time.Hour, 2 * time.Hour, false},
		{2*time.Hour + time.Second, 2 * time.Hour, true},
		{47 * time.Hour, 0, false},
		{49 * time.Hour, 0, true},
		{49 * time.Hour, -time.Hour, true},
		{0, 0, false},
	}
	for _, tt := range tests {
		if got := Stale(tt.age, tt.after); got != tt.want {
			t.Errorf("Stale(%v, %v) = %v, want %v", tt.age, tt.after, got, tt.want)
		}
	}
}

// withAnchors is a project record that holds the anchors.
func withAnchors(as []anchors.Anchor) *state.Project {
	p := &state.Project{}
	anchors.Key.Of(p).List = as
	return p
}

// TestStartTodosOwnAndNotes: the start lists the session's own open
// todos and a person's notes (on no checklist), not another session's
// checklist.
func TestStartTodosOwnAndNotes(t *testing.T) {
	p := &state.Project{}
	for _, n := range []todos.New{{Title: "mine", Session: "s"}, {Title: "a note", Session: ""}, {Title: "theirs", Session: "other"}} {
		if _, err := todos.Add(p, n, t0); err != nil {
			t.Fatal(err)
		}
	}
	r, _ := startContext(startCall(t, t.TempDir(), p), func() Options { return testOptions() })
	ctx := event.JoinEntries(r.Context)
	if !strings.Contains(ctx, "mine") || !strings.Contains(ctx, "a note") || strings.Contains(ctx, "theirs") {
		t.Errorf("start context:\n%s", ctx)
	}
}
