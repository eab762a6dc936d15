package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/state"
)

type memLoader struct {
	st      *State
	failPre error // fail before calling fn
	saved   int
}

func (l *memLoader) Update(_ context.Context, ev *event.Event, _ state.Groups, fn func(*State) error) error {
	if l.failPre != nil {
		return l.failPre
	}
	if l.st == nil {
		l.st = NewState(ev)
	}
	if err := fn(l.st); err != nil {
		return err
	}
	l.saved++
	return nil
}

type testEnv struct{ logs []string }

func (e *testEnv) Logf(f string, a ...any) { e.logs = append(e.logs, fmt.Sprintf(f, a...)) }
func (e *testEnv) Now() time.Time          { return time.Unix(0, 0) }

func say(name string, p Priority, r event.Result) Handler {
	return Handler{Name: name, Priority: p, Handle: func(*Call) (event.Result, error) { return r, nil }}
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name     string
		handlers []Handler
		verdict  event.Verdict
		rule     string
		spoke    string
		context  string
	}{
		{"deny beats ask beats allow",
			[]Handler{say("a", Low, event.Result{Verdict: event.Allow}), say("b", Normal, event.Result{Verdict: event.Ask, Rule: "b1"}), say("c", Low, event.Result{Verdict: event.Deny, Rule: "c1"})},
			event.Deny, "c1", "b,a,c", ""},
		{"equal verdicts keep the higher priority reason",
			[]Handler{say("low", Low, event.Result{Verdict: event.Deny, Rule: "low"}), say("crit", Critical, event.Result{Verdict: event.Deny, Rule: "crit"})},
			event.Deny, "crit", "crit,low", ""},
		{"silent handlers are not named",
			[]Handler{say("quiet", Critical, event.Result{}), say("ctx", Normal, event.Result{Context: event.Note("t", "two", event.Normal, "two")}), say("ctx0", High, event.Result{Context: event.Note("t", "one", event.Normal, "one")})},
			event.None, "", "ctx0,ctx", "one\n\ntwo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := New(&memLoader{}, &testEnv{}, tt.handlers...)
			d := e.Run(context.Background(), &event.Event{Kind: event.PreTool, SessionID: "s", ContextCap: 1000})
			var names []string
			for _, s := range d.Spoke {
				names = append(names, s.Handler)
			}
			if d.Verdict != tt.verdict || d.Rule != tt.rule || strings.Join(names, ",") != tt.spoke || d.ContextText() != tt.context {
				t.Errorf("got verdict %v rule %q spoke %v context %q", d.Verdict, d.Rule, names, d.ContextText())
			}
		})
	}
}

func TestFailingHandlers(t *testing.T) {
	boom := func(*Call) (event.Result, error) { panic("boom") }
	fail := func(*Call) (event.Result, error) { return event.Result{}, errors.New("broken config") }
	tests := []struct {
		name    string
		kind    event.Kind
		h       Handler
		verdict event.Verdict
	}{
		{"critical panic on a tool call denies", event.PreTool, Handler{Name: "guard", Priority: Critical, Handle: boom}, event.Deny},
		{"critical error on a tool call denies", event.PermissionRequest, Handler{Name: "guard", Priority: Critical, Handle: fail}, event.Deny},
		{"critical failure elsewhere is skipped", event.Stop, Handler{Name: "guard", Priority: Critical, Handle: fail}, event.None},
		{"normal panic is skipped", event.PreTool, Handler{Name: "phase", Priority: Normal, Handle: boom}, event.None},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := &testEnv{}
			after := say("after", Low, event.Result{Context: event.Note("t", "still ran", event.Normal, "still ran")})
			d := New(&memLoader{}, env, tt.h, after).Run(context.Background(), &event.Event{Kind: tt.kind, ContextCap: 1000})
			if d.Verdict != tt.verdict {
				t.Fatalf("verdict %v, want %v", d.Verdict, tt.verdict)
			}
			if d.ContextText() != "still ran" {
				t.Error("a failing handler stopped the ones after it")
			}
			if tt.verdict == event.Deny && !strings.Contains(d.Reason, "atreides could not check") {
				t.Errorf("deny reason %q", d.Reason)
			}
			if tt.verdict == event.None && len(env.logs) == 0 {
				t.Error("skipped failure not logged")
			}
		})
	}
}

func TestKindsFilter(t *testing.T) {
	var ran []string
	h := func(name string, kinds ...event.Kind) Handler {
		return Handler{Name: name, Kinds: kinds, Handle: func(*Call) (event.Result, error) { ran = append(ran, name); return event.Result{}, nil }}
	}
	New(&memLoader{}, &testEnv{}, h("pre", event.PreTool), h("all"), h("stop", event.Stop)).Run(context.Background(), &event.Event{Kind: event.Stop})
	if strings.Join(ran, ",") != "all,stop" {
		t.Errorf("ran %v", ran)
	}
}

func TestStateLoadFailureStillDecides(t *testing.T) {
	env := &testEnv{}
	l := &memLoader{failPre: errors.New("disk full")}
	var sawState bool
	h := Handler{Name: "guard", Priority: Critical, Handle: func(c *Call) (event.Result, error) {
		sawState = c.State != nil && c.State.Session != nil
		return event.Result{Verdict: event.Deny, Rule: "r"}, nil
	}}
	d := New(l, env, h).Run(context.Background(), &event.Event{Kind: event.PreTool, SessionID: "s"})
	if d.Verdict != event.Deny || !sawState {
		t.Fatalf("verdict %v, state given %v", d.Verdict, sawState)
	}
	if len(env.logs) != 1 || !strings.Contains(env.logs[0], "disk full") {
		t.Errorf("logs %v", env.logs)
	}
}

func TestStateIsSharedAndSaved(t *testing.T) {
	l := &memLoader{}
	inc := Handler{Name: "inc", Handle: func(c *Call) (event.Result, error) { c.State.Session.Counters.ToolCalls++; return event.Result{}, nil }}
	e := New(l, &testEnv{}, inc)
	for range 3 {
		e.Run(context.Background(), &event.Event{Kind: event.PreTool, SessionID: "s"})
	}
	if l.st.Session.Counters.ToolCalls != 3 || l.saved != 3 {
		t.Errorf("tool calls %d, saves %d", l.st.Session.Counters.ToolCalls, l.saved)
	}
}

func BenchmarkRun(b *testing.B) {
	hs := []Handler{
		say("guard", Critical, event.Result{Verdict: event.Allow}),
		say("phase", Normal, event.Result{Context: event.Note("t", "phase: exploration", event.Normal, "phase: exploration")}),
		{Name: "record", Priority: Low, Handle: func(c *Call) (event.Result, error) { c.State.Session.Counters.Events++; return event.Result{}, nil }},
	}
	e := New(&memLoader{}, &testEnv{}, hs...)
	ev := &event.Event{Kind: event.PreTool, SessionID: "s"}
	b.ReportAllocs()
	for b.Loop() {
		e.Run(context.Background(), ev)
	}
}

// TestDecidedBeforeSave: Decided gets the decision Run returns, once,
// before the loader saves the state; not at all when the state could not
// be loaded.
func TestDecidedBeforeSave(t *testing.T) {
	for _, tc := range []struct {
		name  string
		l     *memLoader
		calls int
	}{
		{"loaded", &memLoader{}, 1},
		{"not loaded", &memLoader{failPre: errors.New("locked")}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(tc.l, &testEnv{}, say("g", Critical, event.Result{Verdict: event.Deny, Rule: "r"}))
			var got []*event.Decision
			e.Decided = func(d *event.Decision) {
				if tc.l.saved != 0 {
					t.Error("Decided after the save")
				}
				got = append(got, d)
			}
			d := e.Run(context.Background(), &event.Event{Kind: event.PreTool})
			if len(got) != tc.calls || tc.calls == 1 && got[0] != d {
				t.Errorf("Decided got %v, Run returned %v", got, d)
			}
			if d.Verdict != event.Deny {
				t.Errorf("verdict %v", d.Verdict)
			}
		})
	}
}

// TestPhaseChangeMarksTheDecision: a handler that moves the phase leaves a
// phase mark on the decision, without saying anything itself; a handler
// that declares no phase group cannot, and an event that changes nothing
// has no marks.
func TestPhaseChangeMarksTheDecision(t *testing.T) {
	move := func(groups state.Groups) Handler {
		return Handler{Name: "phase", Groups: groups, Handle: func(c *Call) (event.Result, error) {
			phase.Key.Of(c.State.Session).Set(phase.Implementation, "edit x.go", c.Event.Time)
			return event.Result{}, nil
		}}
	}
	for _, tc := range []struct {
		name string
		h    Handler
		want []event.Mark
	}{
		{"moves", move(phase.Key.Group()), []event.Mark{{Kind: event.MarkPhase, Text: "start → implementation: edit x.go"}}},
		{"nothing", say("quiet", Normal, event.Result{}), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(&memLoader{}, &testEnv{}, tc.h)
			var decided *event.Decision
			e.Decided = func(d *event.Decision) { decided = d }
			d := e.Run(context.Background(), &event.Event{Kind: event.PreTool, SessionID: "s"})
			if fmt.Sprint(d.Marks) != fmt.Sprint(tc.want) || decided != d {
				t.Errorf("marks %v, want %v", d.Marks, tc.want)
			}
			// Once moved, the same move again marks nothing.
			if d := e.Run(context.Background(), &event.Event{Kind: event.PreTool, SessionID: "s"}); len(d.Marks) != 0 {
				t.Errorf("second run marks %v", d.Marks)
			}
		})
	}
}

// groupsLoader records the groups the engine asked it for.
type groupsLoader struct{ groups state.Groups }

func (l *groupsLoader) Update(_ context.Context, ev *event.Event, groups state.Groups, fn func(*State) error) error {
	l.groups = groups
	return fn(NewState(ev))
}

// TestWhenNarrowsKinds: a handler whose When refuses the event neither
// runs nor has its groups loaded; one it accepts does both.
func TestWhenNarrowsKinds(t *testing.T) {
	ran := false
	h := Handler{Name: "compact-only", Kinds: []event.Kind{event.SessionStart}, Groups: compaction.Key.Group(),
		When:   func(ev *event.Event) bool { return ev.Source == "compact" },
		Handle: func(*Call) (event.Result, error) { ran = true; return event.Result{}, nil }}
	for _, tc := range []struct {
		source string
		want   bool
	}{{"startup", false}, {"compact", true}} {
		ran = false
		l := &groupsLoader{}
		other := say("other", Normal, event.Result{})
		other.Groups = state.NoGroups
		New(l, &testEnv{}, h, other).Run(context.Background(), &event.Event{Kind: event.SessionStart, Source: tc.source, SessionID: "s"})
		if ran != tc.want || (l.groups&compaction.Key.Group() != 0) != tc.want {
			t.Errorf("source %s: ran %v, groups %v; want %v", tc.source, ran, l.groups, tc.want)
		}
	}
}
