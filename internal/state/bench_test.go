package state

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// busyStore is a project with n sessions, each with a full history, as a
// month of daily use leaves it.
func busyStore(b *testing.B, n int) *store.Store {
	b.Helper()
	st := store.Open(filepath.Join(b.TempDir(), ".atreides"))
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		for i := range n {
			s := NewSession(fmt.Sprintf("session-%04d", i), "claude", t0)
			for range MaxHistory {
				s.AddCall(ToolCall{Time: t0, ID: "toolu_01ABCDEFGHIJ", Tool: "shell", Raw: "Bash", Summary: "go test ./internal/... 2>&1 | tail -20", Outcome: "ok", Duration: 900})
			}
			if err := SaveSession(tx, s); err != nil {
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
	p := &Project{}
	b.ReportAllocs()
	for b.Loop() {
		err := st.Update(context.Background(), func(tx *store.Tx) error {
			_, err := Prune(tx, p, "", t0.Add(time.Hour), 30*24*time.Hour)
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
			_, err := Sessions(tx, func(*Session) error { return nil })
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
