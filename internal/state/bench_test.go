package state

import (
	"context"
	"fmt"
	"os"
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

// busySession is a session after a long day: a full history, agent todos,
// strikes, a phase history, a compaction snapshot, pending file snapshots
// and subagents, as the hook of a busy session loads and saves it. It is
// the committed record (testdata/session-busy.rec), so that its groups
// include those of the features, which live in their own packages, and
// every build measures the same bytes.
func busySession(id string) *Session {
	s, err := DecodeSession(goldenBytes("session-busy.rec"))
	if err != nil {
		panic(err)
	}
	s.ID = id
	return s
}

// busyProject is a project with todos, anchors, the AGENTS.md cache and
// governance in use: the committed record (testdata/project-busy.rec).
func busyProject() *Project {
	p, err := DecodeProject(goldenBytes("project-busy.rec"))
	if err != nil {
		panic(err)
	}
	return p
}

func goldenBytes(name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return b
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
		groups Groups
	}{
		{"pre-tool", GroupHistory | GroupGovernance},
		{"all", AllGroups},
	} {
		b.Run(bc.name, func(b *testing.B) {
			st := store.Open(filepath.Join(b.TempDir(), ".atreides"))
			err := st.Update(context.Background(), func(tx *store.Tx) error {
				if err := SaveSession(tx, busySession("s")); err != nil {
					return err
				}
				return SaveProject(tx, busyProject())
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				err := st.Update(context.Background(), func(tx *store.Tx) error {
					l, err := Load(tx, "s", "claude", t0, bc.groups)
					if err != nil {
						return err
					}
					l.Session.Counters.Events++
					l.Session.AddCall(ToolCall{Time: t0, ID: "toolu_new", Tool: "shell", Raw: "Bash", Summary: "ls", Outcome: "pending"})
					l.Project.Governance.Touch("s", "claude", t0)
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
	sess, proj := EncodeSession(busySession("s")), EncodeProject(busyProject())
	b.ReportAllocs()
	for b.Loop() {
		l, err := LoadBytes(sess, proj, "s", "claude", t0, GroupHistory|GroupGovernance)
		if err != nil {
			b.Fatal(err)
		}
		l.Session.Counters.Events++
		l.Session.AddCall(ToolCall{Time: t0, ID: "toolu_new", Tool: "shell", Raw: "Bash", Summary: "ls", Outcome: "pending"})
		if _, _, err := l.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}
