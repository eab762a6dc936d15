package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// lockLoader records whether the "lock" was held while anything ran.
type lockLoader struct {
	held   bool
	failed error
	log    *[]string
}

func (l *lockLoader) Update(_ context.Context, ev *event.Event, _ state.Groups, fn func(*State) error) error {
	if l.failed != nil {
		return l.failed
	}
	l.held = true
	defer func() { l.held = false }()
	*l.log = append(*l.log, "lock")
	return fn(NewState(ev))
}

type analysisKey struct{}

// Prepare runs before the lock is taken, its result reaches Handle through
// the memo, and a Handle under the lock reads it without recomputing.
func TestPrepareRunsOutsideTheLock(t *testing.T) {
	var log []string
	l := &lockLoader{log: &log}
	h := Handler{Name: "guard", Priority: Critical, Kinds: []event.Kind{event.PreTool},
		Prepare: func(c *Call) {
			if l.held || c.State != nil {
				t.Error("Prepare ran under the lock or with state")
			}
			log = append(log, "prepare")
			c.Memo.Set(analysisKey{}, event.Result{Verdict: event.Deny, Rule: "r"})
		},
		Handle: func(c *Call) (event.Result, error) {
			if !l.held {
				t.Error("Handle ran outside the lock")
			}
			log = append(log, "handle")
			v, _ := c.Memo.Get(analysisKey{})
			return v.(event.Result), nil
		},
	}
	d := New(l, &testEnv{}, h).Run(context.Background(), &event.Event{Kind: event.PreTool})
	if d.Verdict != event.Deny || d.Rule != "r" {
		t.Fatalf("decision %+v, want the prepared deny", d)
	}
	if got := strings.Join(log, ","); got != "prepare,lock,handle" {
		t.Fatalf("order %s, want prepare,lock,handle", got)
	}
}

// A Prepare that panics leaves nothing in the memo; a critical handler
// that then fails denies the tool call.
func TestPreparePanicFailsClosed(t *testing.T) {
	env := &testEnv{}
	h := Handler{Name: "guard", Priority: Critical, Kinds: []event.Kind{event.PreTool},
		Prepare: func(*Call) { panic("boom") },
		Handle: func(c *Call) (event.Result, error) {
			if _, ok := c.Memo.Get(analysisKey{}); !ok {
				return event.Result{}, context.DeadlineExceeded
			}
			return event.Result{}, nil
		},
	}
	d := New(&memLoader{}, env, h).Run(context.Background(), &event.Event{Kind: event.PreTool})
	if d.Verdict != event.Deny || d.Rule != "atreides.handler-failed" {
		t.Fatalf("decision %+v, want a fail-closed deny", d)
	}
	if len(env.logs) == 0 {
		t.Fatal("the panic was not logged")
	}
}

// When the store cannot be loaded, the handlers run on fresh state marked
// unsaved, so a handler can tell that nothing it changes is kept.
func TestUnsavedStateIsMarked(t *testing.T) {
	var unsaved []bool
	h := Handler{Name: "rec", Priority: Low, Handle: func(c *Call) (event.Result, error) {
		unsaved = append(unsaved, c.State.Unsaved)
		return event.Result{}, nil
	}}
	var log []string
	New(&lockLoader{log: &log}, &testEnv{}, h).Run(context.Background(), &event.Event{Kind: event.PostTool})
	New(&lockLoader{log: &log, failed: context.DeadlineExceeded}, &testEnv{}, h).Run(context.Background(), &event.Event{Kind: event.PostTool})
	if len(unsaved) != 2 || unsaved[0] || !unsaved[1] {
		t.Fatalf("Unsaved = %v, want [false true]", unsaved)
	}
}

// Every handler that ran is timed, in the order it ran, with its Prepare
// apart; a handler the event's kind does not concern is not listed, and a
// failing one still is.
func TestTimings(t *testing.T) {
	const nap = 2 * time.Millisecond
	var log []string
	hs := []Handler{
		{Name: "slow-prepare", Priority: Critical,
			Prepare: func(*Call) { time.Sleep(nap) },
			Handle:  func(*Call) (event.Result, error) { return event.Result{}, nil }},
		{Name: "slow-handle", Priority: Normal, Handle: func(*Call) (event.Result, error) { time.Sleep(nap); return event.Result{}, nil }},
		{Name: "failing", Priority: Low, Handle: func(*Call) (event.Result, error) { return event.Result{}, errors.New("no") }},
		{Name: "other-kind", Priority: Low, Kinds: []event.Kind{event.Stop}, Handle: func(*Call) (event.Result, error) { return event.Result{}, nil }},
	}
	d := New(&lockLoader{log: &log}, &testEnv{}, hs...).Run(context.Background(), &event.Event{Kind: event.PreTool})
	var names []string
	for _, tm := range d.Timings {
		names = append(names, tm.Handler)
	}
	if got := strings.Join(names, ","); got != "slow-prepare,slow-handle,failing" {
		t.Fatalf("timed %s, want slow-prepare,slow-handle,failing", got)
	}
	if tm := d.Timings[0]; tm.Prepare < nap || tm.Handle >= nap {
		t.Errorf("slow-prepare timed %+v, want its Prepare >= %v and its Handle under it", tm, nap)
	}
	if tm := d.Timings[1]; tm.Prepare != 0 || tm.Handle < nap {
		t.Errorf("slow-handle timed %+v, want no Prepare and its Handle >= %v", tm, nap)
	}
}
