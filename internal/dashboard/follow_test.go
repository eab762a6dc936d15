package dashboard

import (
	"context"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/view/viewtest"
)

// TestWatch: a reader in this process (atreides top) hears of a new
// audit record and of a change of the store through the server's one
// watcher, and stops listening when its context ends.
func TestWatch(t *testing.T) {
	root := viewtest.Project(t)
	s := newServer(t, root, "")
	ctx, cancel := context.WithCancel(context.Background())
	ch := s.Watch(ctx, root)
	wait := func(what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("no change heard after %s", what)
		}
	}
	ev := &event.Event{Kind: event.PreTool, Host: "claude", SessionID: viewtest.Active, HostEvent: "PreToolUse", Time: viewtest.At(44)}
	ev.Tool.Raw, ev.Tool.Command = "Bash", "rm -rf /"
	viewtest.Record(t, root, ev, &event.Decision{Verdict: event.Deny, Rule: "fs.rm-root"})
	wait("an audit record")
	// Drain what the record may have sent twice, then change the store.
	time.Sleep(2 * pollEvery)
	select {
	case <-ch:
	default:
	}
	viewtest.Update(t, root, func(tx *store.Tx) error {
		sess, err := state.LoadSession(tx, viewtest.Active, "claude", viewtest.At(45))
		if err != nil {
			return err
		}
		sess.Counters.Events++
		return state.SaveSession(tx, sess)
	})
	wait("a change of the store")

	snap, err := s.Snapshot(context.Background(), root)
	if err != nil || snap.Session(viewtest.Active) == nil {
		t.Fatalf("snapshot: %v", err)
	}
	cancel()
	src := s.source(root)
	deadline := time.Now().Add(10 * time.Second)
	for {
		src.subMu.Lock()
		n := len(src.subs)
		src.subMu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d listeners left after the reader's context ended", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
