package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// counting is a handler that counts the session's events in its state.
var counting = Handler{Name: "count", Priority: Low, Handle: func(c *Call) (event.Result, error) {
	c.State.Session.Counters.Events++
	return event.Result{}, nil
}}

func storeWith(t *testing.T, sessions map[string][]byte) (*store.Store, *[]string) {
	t.Helper()
	st := store.Open(filepath.Join(t.TempDir(), ".atreides"))
	var reports []string
	st.OnRecover = func(msg string) { reports = append(reports, msg) }
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		for id, b := range sessions {
			// The bucket package state keeps sessions in, planted by hand.
			if err := tx.Put("sessions", id, b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st, &reports
}

func readSession(t *testing.T, st *store.Store, id string) (s *state.Session, raw []byte) {
	t.Helper()
	err := st.View(context.Background(), func(tx *store.Tx) error {
		raw = tx.Get("sessions", id)
		var err error
		s, err = state.FindSession(tx, id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, raw
}

// TestUndecodableSessionHeals: a damaged session record costs that
// session its history once; its events keep being answered and saved,
// the other sessions are untouched, and the quarantine is reported once.
func TestUndecodableSessionHeals(t *testing.T) {
	other, _ := state.Encode(&state.Session{Version: state.SessionVersion, ID: "other", Counters: state.Counters{Events: 5}})
	st, reports := storeWith(t, map[string][]byte{"bad": []byte(`{"v":2,"id":"bad","history":[{"t":`), "other": other})
	env := &testEnv{}
	e := New(StoreLoader{Store: st}, env, say("guard", Critical, event.Result{Verdict: event.Deny, Rule: "r"}), counting)
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	for i := range 2 {
		ev := &event.Event{Kind: event.PreTool, SessionID: "bad", Host: "claude", Time: t0.Add(time.Duration(i) * time.Minute)}
		if d := e.Run(context.Background(), ev); d.Verdict != event.Deny || d.Rule != "r" {
			t.Fatalf("event %d: decision %+v", i, d)
		}
	}
	if len(env.logs) != 0 {
		t.Errorf("engine logged %q: the state was not loaded or saved", env.logs)
	}
	s, _ := readSession(t, st, "bad")
	if s == nil || s.Counters.Events != 2 || !s.Started.Equal(t0) || s.Host != "claude" {
		t.Errorf("session afresh and saved: %+v", s)
	}
	if _, raw := readSession(t, st, "other"); !bytes.Equal(raw, other) {
		t.Errorf("other session changed: %s", raw)
	}
	if len(*reports) != 1 || !strings.Contains((*reports)[0], "session bad") {
		t.Errorf("reports %q, want one about session bad", *reports)
	}
	err := st.View(context.Background(), func(tx *store.Tx) error {
		qs, err := state.QuarantinedRecords(tx)
		if len(qs) != 1 || qs[0].Key != "bad" {
			t.Errorf("quarantine %+v", qs)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPruneAtSessionStart: old sessions go at a session start, at most
// once a day, and the retention is asked for only then.
func TestPruneAtSessionStart(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	old, _ := state.Encode(state.NewSession("old", "claude", t0.Add(-40*24*time.Hour)))
	st, _ := storeWith(t, map[string][]byte{"old": old})
	asked := 0
	l := StoreLoader{Store: st, Retention: func() time.Duration { asked++; return 30 * 24 * time.Hour }}
	e := New(l, &testEnv{}, counting)
	for i, k := range []event.Kind{event.PreTool, event.SessionStart, event.SessionStart, event.PreTool} {
		e.Run(context.Background(), &event.Event{Kind: k, SessionID: "s", Time: t0.Add(time.Duration(i) * time.Hour)})
	}
	if asked != 1 {
		t.Errorf("retention asked %d times, want once", asked)
	}
	if s, _ := readSession(t, st, "old"); s != nil {
		t.Errorf("old session kept: %+v", s)
	}
	// The same housekeeping brings an older atreides's .gitignore up to
	// date (store.RefreshGitignore).
	ignore := filepath.Join(st.Dir(), ".gitignore")
	if err := os.WriteFile(ignore, []byte("# Written by atreides. Machine state that must not be committed.\n# config.yaml, intents.yaml and trace.jsonl are meant to be committed.\nstate.db\nstate.db.lock\n*.corrupt-*\nlog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.Run(context.Background(), &event.Event{Kind: event.SessionStart, SessionID: "s", Time: t0.Add(26 * time.Hour)})
	if b, _ := os.ReadFile(ignore); !strings.Contains(string(b), "audit") {
		t.Errorf(".gitignore not refreshed by the daily housekeeping:\n%s", b)
	}
	if asked != 2 {
		t.Errorf("a day later: retention asked %d times, want 2", asked)
	}
}

// TestPruneReleasesLeases: the prune of a session start reaches the
// groups that refer to sessions though no handler declares them: the
// intent lease of a session it removes is released, that of a session it
// keeps stays.
func TestPruneReleasesLeases(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	old, _ := state.Encode(state.NewSession("old", "claude", t0.Add(-40*24*time.Hour)))
	recent, _ := state.Encode(state.NewSession("recent", "claude", t0.Add(-time.Hour)))
	st, _ := storeWith(t, map[string][]byte{"old": old, "recent": recent})
	leases := func() (held []string) {
		t.Helper()
		err := st.View(context.Background(), func(tx *store.Tx) error {
			p, err := state.LoadProject(tx)
			for _, l := range govstate.Key.Read(p).Locks {
				held = append(held, l.Session)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return held
	}
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			govstate.TakeLease(p, "a", "old", "claude", t0.Add(-40*24*time.Hour))
			govstate.TakeLease(p, "b", "recent", "claude", t0.Add(-time.Hour))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := leases(); len(got) != 2 {
		t.Fatalf("leases before %v", got)
	}
	l := StoreLoader{Store: st, Retention: func() time.Duration { return 30 * 24 * time.Hour }}
	none := counting
	none.Groups = state.NoGroups // declares no group of the project's
	New(l, &testEnv{}, none).Run(context.Background(), &event.Event{Kind: event.SessionStart, SessionID: "s", Time: t0})
	if got := leases(); len(got) != 1 || got[0] != "recent" {
		t.Errorf("leases after the prune %v, want recent's only", got)
	}
}

// TestAppendsKeptWithTheEvent: what handlers and Saving append goes into
// the store in the event's transaction, in order; and nothing is kept when the state could not be loaded.
func TestAppendsKeptWithTheEvent(t *testing.T) {
	st, _ := storeWith(t, nil)
	appending := Handler{Name: "append", Priority: Low, Handle: func(c *Call) (event.Result, error) {
		c.State.Append("ledger", []byte("from the handler"))
		return event.Result{}, nil
	}}
	eng := New(StoreLoader{Store: st}, &testEnv{}, appending)
	eng.Saving = func(s *State, d *event.Decision) { s.Append("audit", []byte("from saving")) }
	ev := &event.Event{Kind: event.PostTool, SessionID: "s1", Time: time.Now()}
	eng.Run(context.Background(), ev)
	eng.Run(context.Background(), ev)
	got := map[string][]string{}
	err := st.View(context.Background(), func(tx *store.Tx) error {
		for _, b := range []string{"ledger", "audit"} {
			if err := tx.ForEach(b, func(_ string, v []byte) error { got[b] = append(got[b], string(v)); return nil }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got["ledger"]) != 2 || got["ledger"][0] != "from the handler" || len(got["audit"]) != 2 || got["audit"][1] != "from saving" {
		t.Fatalf("appended %q", got)
	}

	// A store that cannot be opened keeps nothing and calls no Saving.
	bad := store.Unavailable("nowhere", errors.New("down"))
	eng = New(StoreLoader{Store: bad}, &testEnv{}, appending)
	called := false
	eng.Saving = func(*State, *event.Decision) { called = true }
	eng.Run(context.Background(), ev)
	if called {
		t.Fatal("Saving called on a state that is not saved")
	}
}

// TestAfterAppend: the loader's AfterAppend sees each appended entry's
// bucket and number in the event's transaction, and may change it.
func TestAfterAppend(t *testing.T) {
	st, _ := storeWith(t, nil)
	var seen []string
	l := StoreLoader{Store: st, AfterAppend: func(tx *store.Tx, bucket string, seq uint64) error {
		seen = append(seen, fmt.Sprintf("%s %d", bucket, seq))
		return tx.DeleteBefore(bucket, seq)
	}}
	eng := New(l, &testEnv{})
	eng.Saving = func(s *State, d *event.Decision) { s.Append("audit", []byte("x")) }
	ev := &event.Event{Kind: event.PostTool, SessionID: "s1", Time: time.Now()}
	eng.Run(context.Background(), ev)
	eng.Run(context.Background(), ev)
	n := 0
	err := st.View(context.Background(), func(tx *store.Tx) error {
		return tx.ForEach("audit", func(string, []byte) error { n++; return nil })
	})
	if err != nil || n != 1 || strings.Join(seen, ",") != "audit 1,audit 2" {
		t.Fatalf("seen %q, %d entries left (%v); want audit 1,audit 2 and 1", seen, n, err)
	}
}
