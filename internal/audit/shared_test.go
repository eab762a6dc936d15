package audit

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/store"
)

// The shared trail's tests use an embedded store through NewShared: the
// bucket's reading and pruning go through the same store.Tx API on
// PostgreSQL (internal/cli's TestTeamAuditTwoCheckouts runs them there).

// appendShared appends records' lines to the shared bucket, each in its
// own transaction, bounded like a hook's.
func appendShared(t testing.TB, st *store.Store, maxBytes int64, rs ...*Record) {
	t.Helper()
	bound := Bound(func() int64 { return maxBytes })
	for _, r := range rs {
		err := st.Update(context.Background(), func(tx *store.Tx) error {
			seq, err := tx.Append(Bucket, r.line())
			if err != nil {
				return err
			}
			return bound(tx, Bucket, seq)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func sharedStore(t testing.TB) *store.Store { return store.Open(t.TempDir()) }

func TestSharedReadsLikeTheFile(t *testing.T) {
	st := sharedStore(t)
	now := time.Now()
	a := rec(now.Add(-3*time.Hour), "a", "deny", "fs.rm-root")
	a.Machine, a.Checkout = "laptop", "/src/p"
	appendShared(t, st, 0, a, rec(now.Add(-time.Hour), "b", "allow", ""), rec(now, "c", "deny", "git.reset-hard"))
	sh := NewShared(st)
	for _, tc := range []struct {
		f    Filter
		want string
	}{
		{Filter{}, "a,b,c"},
		{Filter{Verdicts: []string{"deny"}}, "a,c"},
		{Filter{Since: now.Add(-2 * time.Hour)}, "b,c"},
		{Filter{Rule: "fs."}, "a"},
	} {
		var got []Record
		if _, err := sh.Read(tc.f, func(line []byte) error {
			if strings.HasSuffix(string(line), "\n") {
				t.Errorf("line %q passed with its newline", line)
			}
			r, err := Decode(line)
			got = append(got, r)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if s := sessions(got); s != tc.want {
			t.Errorf("%+v: read %s, want %s", tc.f, s, tc.want)
		}
		if tc.want == "a,b,c" && (got[0].Machine != "laptop" || got[0].Checkout != "/src/p") {
			t.Errorf("origin lost: %+v", got[0])
		}
	}
	var rows []Row
	if _, err := sh.ReadRows(Filter{Session: "a"}, func(r *Row) error { rows = append(rows, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Machine != "laptop" || rows[0].Rule != "fs.rm-root" {
		t.Errorf("rows %+v", rows)
	}
	stats, err := sh.Stats(Filter{}, time.UTC)
	if err != nil || stats.Records != 3 || len(stats.Rules) != 2 {
		t.Errorf("stats %+v, %v", stats, err)
	}
	if _, ok := Of(st).(*Trail); !ok {
		t.Error("Of an embedded store is not the project's file")
	}
}

// Retention: the bucket never holds more than the limit's records plus a
// prune stride, keeps the newest, and prunes only on the stride.
func TestSharedRetention(t *testing.T) {
	st := sharedStore(t)
	const maxBytes = 200 * recordBytes // keep 200
	const n = 3*PruneEvery + 50
	for i := range n {
		appendShared(t, st, maxBytes, rec(time.Now(), fmt.Sprint(i), "deny", "r"))
	}
	var got []Record
	if _, err := NewShared(st).Read(Filter{}, func(line []byte) error {
		r, err := Decode(line)
		got = append(got, r)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// The last prune was at 3*PruneEvery, keeping 200; 50 came since.
	if len(got) != 200+50 || got[len(got)-1].Session != fmt.Sprint(n-1) || got[0].Session != fmt.Sprint(n-250) {
		t.Fatalf("kept %d records, %s..%s; want 250, the newest", len(got), got[0].Session, got[len(got)-1].Session)
	}
	if Keep(0) != 0 || Keep(-1) != 0 || Keep(40<<20) != 81920 {
		t.Errorf("Keep: %d %d %d", Keep(0), Keep(-1), Keep(40<<20))
	}
}

// Follow passes records as they are appended, one by one for a few and
// with one read of the bucket for many, none twice and none lost.
func TestSharedFollow(t *testing.T) {
	st := sharedStore(t)
	appendShared(t, st, 0, rec(time.Now(), "old", "deny", "r"))
	ctx, cancel := context.WithCancel(context.Background())
	var (
		mu  sync.Mutex
		got []string
	)
	done, ready := make(chan error), make(chan struct{})
	go func() {
		done <- NewShared(st).Follow(ctx, Filter{Verdicts: []string{"deny"}}, time.Millisecond, func() { close(ready) }, func(line []byte) error {
			r, err := Decode(line)
			mu.Lock()
			got = append(got, r.Session)
			mu.Unlock()
			return err
		})
	}()
	waitFor := func(n int) {
		t.Helper()
		for range 5000 {
			mu.Lock()
			l := len(got)
			mu.Unlock()
			if l >= n {
				return
			}
			time.Sleep(time.Millisecond)
		}
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("followed %d records, want %d", len(got), n)
	}
	select { // the first look starts at the end: what comes after it is followed
	case <-ready:
	case <-time.After(time.Minute):
		t.Fatal("the follower did not start within a minute")
	}
	appendShared(t, st, 0, rec(time.Now(), "1", "deny", "r"), rec(time.Now(), "skip", "allow", ""), rec(time.Now(), "2", "deny", "r"))
	waitFor(2)
	var many []*Record
	for i := range getEach + 10 {
		many = append(many, rec(time.Now(), fmt.Sprint("m", i), "deny", "r"))
	}
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		for _, r := range many {
			if _, err := tx.Append(Bucket, r.line()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(2 + len(many))
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the follower did not end within a minute of its cancel")
	}
	want := "1,2"
	for i := range many {
		want += fmt.Sprint(",m", i)
	}
	if s := strings.Join(got, ","); s != want {
		t.Fatalf("followed %s\nwant %s", s, want)
	}
}

// Line is the record with its origin, the bytes the file and the bucket
// both hold; the zero Origin adds no keys.
func TestLineOrigin(t *testing.T) {
	ev := &event.Event{Kind: event.PreTool, Host: "claude", SessionID: "s", Time: time.Now(), Tool: event.Tool{Raw: "Bash", Command: "rm -rf /"}}
	d := &event.Decision{Verdict: event.Deny, Rule: "fs.rm-root"}
	plain := string(Line(ev, d, time.Millisecond, Origin{}))
	if plain != string(NewRecord(ev, d, time.Millisecond).line()) {
		t.Errorf("Line without origin %s differs from the record's", plain)
	}
	line := string(Line(ev, d, time.Millisecond, Origin{Machine: "box\n1", Checkout: "/src/p"}))
	if !strings.HasSuffix(line, `,"machine":"box\\n1","checkout":"/src/p"}`+"\n") {
		t.Errorf("line %s: want the origin's keys last, sanitized", line)
	}
}
