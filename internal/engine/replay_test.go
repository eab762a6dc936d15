package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/store"
)

// TestReplay: a replayed event runs its handlers on the stored state with
// the event's time as the clock, sees the verdict the host was told, skips
// the handlers whose work is outside the state, and is applied once
// however often it is replayed.
func TestReplay(t *testing.T) {
	st, _ := storeWith(t, nil)
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var sawVerdict event.Verdict
	var sawNow time.Time
	outsideRan, outsidePrepared := false, false
	hs := []Handler{
		counting,
		{Name: "look", Priority: Low, Handle: func(c *Call) (event.Result, error) {
			sawVerdict, sawNow = c.Decision.Verdict, c.Env.Now()
			return event.Result{}, nil
		}},
		{Name: "checks", Priority: Normal, Outside: true,
			Prepare: func(*Call) { outsidePrepared = true },
			Handle:  func(*Call) (event.Result, error) { outsideRan = true; return event.Result{}, nil }},
	}
	ev := &event.Event{Kind: event.PreTool, SessionID: "s1", Time: at, Tool: event.Tool{Name: event.Shell}}
	answered := &event.Decision{Verdict: event.Deny, Rule: "fs.rm-root-home", Reason: "no"}
	replay := func() error {
		return New(StoreLoader{Store: st, EventID: "e1"}, &testEnv{}, hs...).Replay(context.Background(), ev, answered)
	}
	if err := replay(); err != nil {
		t.Fatal(err)
	}
	if sawVerdict != event.Deny || !sawNow.Equal(at) {
		t.Errorf("handlers saw verdict %v at %v, want deny at %v", sawVerdict, sawNow, at)
	}
	if outsideRan || outsidePrepared {
		t.Error("a handler whose work is outside the state ran again")
	}
	if err := replay(); !errors.Is(err, ErrApplied) {
		t.Fatalf("second replay: %v, want ErrApplied", err)
	}
	if s, _ := readSession(t, st, "s1"); s.Counters.Events != 1 || !AppliedKey.Of(s).Has("e1") {
		t.Errorf("events = %d, applied %v: want the event applied once", s.Counters.Events, *AppliedKey.Of(s))
	}

	// An event answered while the store was away whose COMMIT was made
	// after all: the session knows its id, and the replay does nothing.
	ev2 := &event.Event{Kind: event.PostTool, SessionID: "s1", Time: at}
	if _, err := New(StoreLoader{Store: st, EventID: "e2"}, &testEnv{}, counting).Answer(context.Background(), ev2); err != nil {
		t.Fatal(err)
	}
	err := New(StoreLoader{Store: st, EventID: "e2"}, &testEnv{}, counting).Replay(context.Background(), ev2, &event.Decision{})
	if !errors.Is(err, ErrApplied) {
		t.Fatalf("replay of a committed event: %v, want ErrApplied", err)
	}

	// A store out of reach: the replay says so and changes nothing.
	down := store.Unavailable("nowhere", &store.UnreachableError{Where: "db", Err: errors.New("refused")})
	err = New(StoreLoader{Store: down, EventID: "e3"}, &testEnv{}, counting).Replay(context.Background(), ev2, &event.Decision{})
	var u *store.UnreachableError
	if !errors.As(err, &u) {
		t.Fatalf("replay into a store out of reach: %v", err)
	}
}
