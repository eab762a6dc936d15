package state_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// t0 is the benchmarks' clock: the golden records' day.
var t0 = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

// busyStore is a project with n sessions, each with a full history, as a
// month of daily use leaves it.
func busyStore(b *testing.B, n int) *store.Store {
	b.Helper()
	st := store.Open(filepath.Join(b.TempDir(), ".atreides"))
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		for i := range n {
			s := state.NewSession(fmt.Sprintf("session-%04d", i), "claude", t0)
			for range history.Max {
				history.Key.Of(s).Add(history.ToolCall{Time: t0, ID: "toolu_01ABCDEFGHIJ", Tool: "shell", Raw: "Bash", Summary: "go test ./internal/... 2>&1 | tail -20", Outcome: "ok", Duration: 900})
			}
			if err := state.SaveSession(tx, s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkPrune is the daily prune's cost at a session start over 500
// sessions none of which is old yet: the walk reads each record's head.
func BenchmarkPrune(b *testing.B) {
	st := busyStore(b, 500)
	p := &state.Project{}
	b.ReportAllocs()
	for b.Loop() {
		err := st.Update(context.Background(), func(tx *store.Tx) error {
			_, err := state.Prune(tx, p, "", t0.Add(time.Hour), 30*24*time.Hour)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSessionsWalk decodes the same 500 sessions in full, as status
// does: what Prune would cost without reading only the heads.
func BenchmarkSessionsWalk(b *testing.B) {
	st := busyStore(b, 500)
	b.ReportAllocs()
	for b.Loop() {
		err := st.View(context.Background(), func(tx *store.Tx) error {
			_, err := state.Sessions(tx, func(*state.Session) error { return nil })
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundTrip is one hook event's state work for a busy session,
// as a hook does it: one store Update that loads the session and the
// project, records a tool call and saves what changed (the session's
// record file, with its one fdatasync on the temporary directory's file
// system). "pre-tool" loads the groups of a PreToolUse with governance
// on, "all" every group (as before groups).
func BenchmarkRoundTrip(b *testing.B) {
	for _, bc := range []struct {
		name   string
		groups state.Groups
	}{
		{"pre-tool", history.Key.Group() | govstate.Key.Group()},
		{"all", state.AllGroups},
	} {
		b.Run(bc.name, func(b *testing.B) {
			st := store.Open(filepath.Join(b.TempDir(), ".atreides"))
			err := st.Update(context.Background(), func(tx *store.Tx) error {
				if err := state.SaveSession(tx, state.BusySession("s")); err != nil {
					return err
				}
				return state.SaveProject(tx, state.BusyProject())
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				err := st.Update(context.Background(), func(tx *store.Tx) error {
					l, err := state.Load(tx, "s", "claude", t0, bc.groups)
					if err != nil {
						return err
					}
					l.Session.Counters.Events++
					history.Key.Of(l.Session).Add(history.ToolCall{Time: t0, ID: "toolu_new", Tool: "shell", Raw: "Bash", Summary: "ls", Outcome: "pending"})
					govstate.Key.Of(l.Project).Touch("s", "claude", t0)
					return l.Save(tx)
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCodec is BenchmarkRoundTrip's decoding and encoding alone,
// without the store's copies in and out.
func BenchmarkCodec(b *testing.B) {
	sess, proj := state.EncodeSession(state.BusySession("s")), state.EncodeProject(state.BusyProject())
	b.ReportAllocs()
	for b.Loop() {
		l, err := state.LoadBytes(sess, proj, "s", "claude", t0, history.Key.Group()|govstate.Key.Group())
		if err != nil {
			b.Fatal(err)
		}
		l.Session.Counters.Events++
		history.Key.Of(l.Session).Add(history.ToolCall{Time: t0, ID: "toolu_new", Tool: "shell", Raw: "Bash", Summary: "ls", Outcome: "pending"})
		if _, _, err := l.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}
