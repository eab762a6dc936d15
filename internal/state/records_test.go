package state

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// sessionFile is where the record of session id is kept.
func sessionFile(st *store.Store, id string) string {
	return filepath.Join(st.Dir(), setSessions, id+".rec")
}

// TestSessionsMoveToRecords: a session kept in the bucket by an older
// store is read from there and moves to its record when saved; a session
// whose id cannot name a file stays in the bucket.
func TestSessionsMoveToRecords(t *testing.T) {
	st, reports := testStore(t)
	long := strings.Repeat("x", store.MaxRecordKey+1)
	put(t, st, bucketSessions, "old", goodSession(t, "old", t0))
	update(t, st, func(tx *store.Tx) error {
		for _, id := range []string{"old", long} {
			l, err := Load(tx, id, "claude", t0, 0)
			if err != nil {
				return err
			}
			if err := l.Save(tx); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, st, func(tx *store.Tx) error {
		if tx.Get(bucketSessions, "old") != nil || tx.Get(bucketSessions, long) == nil {
			t.Error("bucket: old still there, or the long id not kept there")
		}
		if b, err := tx.Record(setSessions, "old"); err != nil || !bytes.Equal(b, goodSession(t, "old", t0)) {
			t.Errorf("record of old: %v", err)
		}
		var ids []string
		_, err := Sessions(tx, func(s *Session) error { ids = append(ids, s.ID); return nil })
		if err != nil || strings.Join(ids, ",") != "old,"+long {
			t.Errorf("sessions %v, %v", ids, err)
		}
		return nil
	})
	if len(*reports) != 0 {
		t.Errorf("reports %q", *reports)
	}
}

// TestDamagedSessionRecord: a record file that holds no whole value is
// quarantined with its bytes and the session starts afresh. (One of a
// newer atreides is an ErrNewer, which Load leaves alone as for any other
// record: see TestLoadSessionLeavesNewer.)
func TestDamagedSessionRecord(t *testing.T) {
	st, reports := testStore(t)
	update(t, st, func(tx *store.Tx) error {
		s := NewSession("bad", "claude", t0)
		s.Counters.Events = 9
		return SaveSession(tx, s)
	})
	junk := bytes.Repeat([]byte{0xee}, 8192)
	if err := os.WriteFile(sessionFile(st, "bad"), junk, 0o600); err != nil {
		t.Fatal(err)
	}

	view(t, st, func(tx *store.Tx) error {
		var d *DamagedError
		if _, err := FindSession(tx, "bad"); !errors.As(err, &d) || !errors.Is(err, store.ErrRecordDamaged) {
			t.Errorf("FindSession of a damaged record: %v", err)
		}
		return nil
	})
	update(t, st, func(tx *store.Tx) error {
		l, err := Load(tx, "bad", "claude", t0.Add(time.Hour), 0)
		if err != nil {
			return err
		}
		if l.Session.Counters.Events != 0 {
			t.Error("the damaged session was not started afresh")
		}
		return l.Save(tx)
	})
	view(t, st, func(tx *store.Tx) error {
		qs, _ := QuarantinedRecords(tx)
		if len(qs) != 1 || qs[0].Key != "bad" || !bytes.Equal(qs[0].Data, junk) {
			t.Errorf("quarantine %d entries", len(qs))
		}
		if s, err := FindSession(tx, "bad"); err != nil || s == nil {
			t.Errorf("the fresh session was not saved: %v", err)
		}
		return nil
	})
	if len(*reports) != 1 || !strings.Contains((*reports)[0], "session bad") {
		t.Errorf("reports %q", *reports)
	}
	if err := recordErr(&store.RecordError{Err: store.ErrRecordNewer}); !errors.Is(err, ErrNewer) {
		t.Errorf("a newer record file is not ErrNewer: %v", err)
	}
}

// TestPruneRecords: old sessions' records are removed, the kept session
// and recent ones stay, a damaged one is quarantined (and its file goes).
func TestPruneRecords(t *testing.T) {
	st, _ := testStore(t)
	update(t, st, func(tx *store.Tx) error {
		for id, at := range map[string]time.Time{"old": t0.Add(-40 * 24 * time.Hour), "keep": t0.Add(-40 * 24 * time.Hour), "new": t0} {
			if err := SaveSession(tx, NewSession(id, "claude", at)); err != nil {
				return err
			}
		}
		return SaveSession(tx, NewSession("broken", "claude", t0))
	})
	_ = os.WriteFile(sessionFile(st, "broken"), []byte("x"), 0o600)
	var n PruneCounts
	update(t, st, func(tx *store.Tx) error {
		var err error
		n, err = Prune(tx, &Project{}, "keep", t0, 30*24*time.Hour)
		return err
	})
	if n.Sessions != 1 || n.Damaged != 1 {
		t.Errorf("pruned %+v", n)
	}
	for id, want := range map[string]bool{"old": false, "keep": true, "new": true, "broken": false} {
		_, err := os.Stat(sessionFile(st, id))
		if (err == nil) != want {
			t.Errorf("%s: file exists %v, want %v", id, err == nil, want)
		}
	}
}

// TestProjectRecord: the project moves from the bucket to its record file
// when loaded for an event; a record file that holds no whole value is
// quarantined and the project starts afresh, saying everything was lost.
func TestProjectRecord(t *testing.T) {
	st, reports := testStore(t)
	p := &Project{Version: ProjectVersion, Pruned: t0}
	put(t, st, bucketProject, keyProject, EncodeProject(p))
	update(t, st, func(tx *store.Tx) error {
		l, err := Load(tx, "s", "claude", t0, NoGroups)
		if err != nil {
			return err
		}
		return l.Save(tx)
	})
	view(t, st, func(tx *store.Tx) error {
		if tx.Get(bucketProject, keyProject) != nil {
			t.Error("the project is still in the bucket")
		}
		got, err := LoadProject(tx)
		if err != nil || !got.Pruned.Equal(t0) {
			t.Errorf("after the move: %+v, %v", got, err)
		}
		return nil
	})

	junk := bytes.Repeat([]byte{0xee}, 8192)
	if err := os.WriteFile(filepath.Join(st.Dir(), setProject, keyProject+".rec"), junk, 0o600); err != nil {
		t.Fatal(err)
	}
	update(t, st, func(tx *store.Tx) error {
		return UpdateProject(tx, func(p *Project) error {
			if !p.Pruned.IsZero() || p.Salvaged == nil || !strings.HasPrefix(strings.Join(p.Salvaged.Lost, ","), "everything") {
				t.Errorf("after damage: %+v", p)
			}
			return nil
		})
	})
	view(t, st, func(tx *store.Tx) error {
		qs, _ := QuarantinedRecords(tx)
		if len(qs) != 1 || qs[0].Kind != "project" || !bytes.Equal(qs[0].Data, junk) {
			t.Errorf("quarantine: %d entries", len(qs))
		}
		return nil
	})
	if len(*reports) != 1 || !strings.Contains((*reports)[0], "PROJECT STATE DAMAGED") {
		t.Errorf("reports %q", *reports)
	}
}
