package governance

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/trace"
)

// teamLedger is the team store's ledger bucket, its entries one per line,
// and the head of the project's state, from one read.
func teamLedger(t *testing.T, st *store.Store) ([]byte, *trace.Head) {
	t.Helper()
	var data []byte
	var head *trace.Head
	err := st.View(context.Background(), func(tx *store.Tx) error {
		p, err := state.LoadProject(tx)
		if err != nil {
			return err
		}
		head = &trace.Head{Seq: govstate.Key.Of(p).Trace.Seq, Hash: govstate.Key.Of(p).Trace.Hash}
		return tx.ForEach(trace.Bucket, func(_ string, v []byte) error {
			data = append(append(data, v...), '\n')
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return data, head
}

// TestTeamLedger: with a team store (Options.Team; an embedded store
// stands in for the database, which serves the bucket the same way), two
// checkouts sharing the store append to one chain in the store's ledger
// bucket, chained to the shared project state's head: no trace.jsonl, no
// queue and no checkpoint in either checkout, and the chain verifies with
// the records of both. A record made while the store is unavailable is
// not queued in the checkout.
func TestTeamLedger(t *testing.T) {
	laptop, desktop := newFixture(t), newFixture(t)
	desktop.st = laptop.st // one store, two checkouts
	for _, f := range []*fixture{laptop, desktop} {
		f.opts.Team = true
		f.signed()
	}
	laptop.selectIntent("s1", "auth")
	desktop.selectIntent("s2", "docs")
	laptop.shellWrite("tee src/auth/a.go", "t1", "src/auth/a.go", "package a\n")
	os.MkdirAll(filepath.Join(desktop.root, "docs"), 0o755)
	desktop.env.now = desktop.env.now.Add(1)
	desktop.shell("s2", "tee docs/x.md", "t2", event.PreTool)
	os.WriteFile(filepath.Join(desktop.root, "docs/x.md"), []byte("# x\n"), 0o644)
	desktop.shell("s2", "tee docs/x.md", "t2", event.PostTool)
	laptop.shellWrite("tee src/auth/b.go", "t3", "src/auth/b.go", "package b\n")

	data, head := teamLedger(t, laptop.st)
	rep := trace.VerifyTeam(data, head)
	if !rep.OK || rep.Records != 3 || rep.Head.Seq != 3 || rep.Head.Source != trace.SourceStore {
		t.Fatalf("team ledger: %+v\n%s", rep, data)
	}
	var sessions []string
	for _, e := range trace.Parse(data) {
		sessions = append(sessions, e.Record.Metadata.Atreides.Session)
	}
	if want := []string{"s1", "s2", "s1"}; !slices.Equal(sessions, want) {
		t.Errorf("sessions %q, want %q", sessions, want)
	}
	for _, f := range []*fixture{laptop, desktop} {
		for _, p := range []string{TracePath(f.root), trace.PendingDir(TracePath(f.root))} {
			if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s exists in team mode", p)
			}
		}
		if _, err := trace.NewAnchor(f.opts.KeyDir, f.root).Load(); !errors.Is(err, trace.ErrNoCheckpoint) {
			t.Errorf("a checkpoint was signed in team mode: %v", err)
		}
	}

	// The store unavailable: the record is not made now (nor queued in
	// the checkout's file queue): it waits with its event in the outbox,
	// and the log says so.
	os.WriteFile(filepath.Join(laptop.root, "src/auth/c.go"), []byte("package c\n"), 0o644)
	laptop.runLockedOut(&event.Event{Kind: event.PostTool, SessionID: "s1", ToolUseID: "t4",
		Tool: event.Tool{Name: event.Write, Raw: "Write", Paths: []string{filepath.Join(laptop.root, "src/auth/c.go")}}})
	if _, err := os.Lstat(trace.PendingDir(TracePath(laptop.root))); !errors.Is(err, os.ErrNotExist) {
		t.Error("a record was queued in the checkout in team mode")
	}
	if !laptop.env.logged("src/auth/c.go", "waits with its event") {
		t.Error("the record that waits is not logged")
	}
	if after, _ := teamLedger(t, laptop.st); !bytes.Equal(after, data) {
		t.Error("the ledger changed without the store")
	}
}

// TestLeaseFromAnotherCheckout: in a team's store, a session of another
// checkout that wants the intent a session here holds is told where that
// session is, when it selects the intent and when it writes without one;
// a session of the holder's own checkout is told no origin.
func TestLeaseFromAnotherCheckout(t *testing.T) {
	for _, tc := range []struct {
		name    string
		machine string // the other checkout's
		want    func(holder string) string
	}{
		{"another machine", "desktop", func(string) string { return " (from machine laptop)" }},
		{"another checkout on this machine", "laptop", func(holder string) string { return " (from checkout " + holder + ")" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			here, other := newFixture(t), newFixture(t)
			dir := project.StateDir(here.root) // one store, two checkouts
			here.st.Origin = store.Origin{Machine: "laptop", Checkout: here.root}
			other.st = store.Open(dir)
			other.st.Origin = store.Origin{Machine: tc.machine, Checkout: other.root}
			if err := here.selectIntent("s1", "auth"); err != nil {
				t.Fatal(err)
			}
			from := tc.want(here.root)

			var held *HeldError
			if err := other.selectIntent("s2", "auth"); !asHeld(err, &held) || held.From != from || !strings.Contains(err.Error(), "held by session s1"+from+" since") {
				t.Errorf("selecting the held intent: %v, want it held by s1%s", err, from)
			}
			d := other.write("s2", "src/auth/a.go")
			if d.Verdict != event.Deny || !strings.Contains(d.Reason, "[held by session s1"+from+" since") {
				t.Errorf("writing without an intent: %v %q", d.Verdict, d.Reason)
			}

			err := here.selectIntent("s3", "auth")
			if !asHeld(err, &held) || held.From != "" || strings.Contains(err.Error(), "(from") {
				t.Errorf("this checkout's lease, selected here: %v", err)
			}
			if d := here.write("s3", "src/auth/a.go"); !strings.Contains(d.Reason, "[held by session s1 since") {
				t.Errorf("this checkout's lease, written here: %q", d.Reason)
			}
		})
	}
}

// TestTeamLedgerReplayRecordedOnce: in a team's store, a PostToolUse the
// host sends again (same tool-use id) adds no second record: the session
// remembers the tool uses the ledger has.
func TestTeamLedgerReplayRecordedOnce(t *testing.T) {
	f := newFixture(t)
	f.opts.Team = true
	f.signed()
	f.selectIntent("s1", "auth")
	f.shellWrite("tee src/auth/a.go", "t1", "src/auth/a.go", "package a\n")
	f.shell("s1", "tee src/auth/a.go", "t1", event.PostTool) // the replay
	f.shell("s1", "tee src/auth/a.go", "t1", event.PostTool) // and again
	data, head := teamLedger(t, f.st)
	if rep := trace.VerifyTeam(data, head); !rep.OK || rep.Records != 1 {
		t.Fatalf("team ledger after replays: %+v\n%s", rep, data)
	}
}
