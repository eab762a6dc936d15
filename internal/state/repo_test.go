package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// testStore is a store in a temporary project whose recovery reports are
// collected.
func testStore(t *testing.T) (*store.Store, *[]string) {
	t.Helper()
	st := store.Open(filepath.Join(t.TempDir(), ".atreides"))
	var reports []string
	st.OnRecover = func(msg string) { reports = append(reports, msg) }
	return st, &reports
}

func put(t *testing.T, st *store.Store, bucket, key string, val []byte) {
	t.Helper()
	if err := st.Update(context.Background(), func(tx *store.Tx) error { return tx.Put(bucket, key, val) }); err != nil {
		t.Fatal(err)
	}
}

func update(t *testing.T, st *store.Store, fn func(tx *store.Tx) error) {
	t.Helper()
	if err := st.Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

func view(t *testing.T, st *store.Store, fn func(tx *store.Tx) error) {
	t.Helper()
	if err := st.View(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

var t0 = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

func goodSession(t *testing.T, id string, updated time.Time) []byte {
	t.Helper()
	s := NewSession(id, "claude", updated)
	s.Counters.Events = 5
	b, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestLoadSessionQuarantinesDamage(t *testing.T) {
	st, reports := testStore(t)
	bad := []byte(`{"v":2,"id":"bad","counters":{"events":"many"}}`)
	good := goodSession(t, "good", t0)
	put(t, st, bucketSessions, "bad", bad)
	put(t, st, bucketSessions, "good", good)

	// A read-only reader sees the damage and changes nothing.
	view(t, st, func(tx *store.Tx) error {
		_, err := LoadSession(tx, "bad", "claude", t0)
		var d *DamagedError
		if !errors.As(err, &d) || d.Key != "bad" {
			t.Errorf("view: %v", err)
		}
		return nil
	})
	// A transaction that rolls back keeps the record and reports nothing.
	rollback := errors.New("rolled back")
	if err := st.Update(context.Background(), func(tx *store.Tx) error {
		if _, err := LoadSession(tx, "bad", "claude", t0); err != nil {
			t.Error(err)
		}
		return rollback
	}); !errors.Is(err, rollback) {
		t.Fatal(err)
	}
	if len(*reports) != 0 {
		t.Fatalf("reported a rolled-back quarantine: %q", *reports)
	}

	for i := range 2 {
		update(t, st, func(tx *store.Tx) error {
			s, err := LoadSession(tx, "bad", "claude", t0.Add(time.Hour))
			if err != nil {
				return err
			}
			if s.Counters.Events != i || !s.Started.Equal(t0.Add(time.Hour)) {
				t.Errorf("event %d: session not afresh: %+v", i, s)
			}
			s.Counters.Events++
			return SaveSession(tx, s)
		})
	}
	if len(*reports) != 1 || !strings.Contains((*reports)[0], "session bad") || !strings.Contains((*reports)[0], "quarantine") {
		t.Errorf("reports %q, want one about session bad", *reports)
	}
	view(t, st, func(tx *store.Tx) error {
		if b := tx.Get(bucketSessions, "good"); !bytes.Equal(b, good) {
			t.Errorf("the other session changed: %s", b)
		}
		qs, err := QuarantinedRecords(tx)
		if err != nil || len(qs) != 1 || qs[0].Kind != "session" || qs[0].Key != "bad" || !bytes.Equal(qs[0].Data, bad) || qs[0].Reason == "" {
			t.Errorf("quarantine %+v %v", qs, err)
		}
		return nil
	})
}

func TestLoadSessionLeavesNewer(t *testing.T) {
	st, reports := testStore(t)
	newer := []byte(`{"v":9,"id":"n","future":{}}`)
	put(t, st, bucketSessions, "n", newer)
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		_, err := LoadSession(tx, "n", "claude", t0)
		return err
	})
	if !errors.Is(err, ErrNewer) {
		t.Fatalf("err %v, want ErrNewer", err)
	}
	view(t, st, func(tx *store.Tx) error {
		if b := tx.Get(bucketSessions, "n"); !bytes.Equal(b, newer) {
			t.Errorf("a newer record was touched: %s", b)
		}
		return nil
	})
	if len(*reports) != 0 {
		t.Errorf("reports %q", *reports)
	}
}

func TestSessionsSkipsDamage(t *testing.T) {
	st, _ := testStore(t)
	put(t, st, bucketSessions, "a", goodSession(t, "a", t0))
	put(t, st, bucketSessions, "b", []byte("\x00garbage"))
	put(t, st, bucketSessions, "c", []byte(sessionV1Record))
	put(t, st, bucketSessions, "d", []byte(`{"v":9}`))
	var ids []string
	var damaged []*DamagedError
	view(t, st, func(tx *store.Tx) error {
		var err error
		damaged, err = Sessions(tx, func(s *Session) error { ids = append(ids, s.ID); return nil })
		return err
	})
	if strings.Join(ids, ",") != "a,sess-v1" || len(damaged) != 2 || damaged[0].Key != "b" || !errors.Is(damaged[1], ErrNewer) {
		t.Errorf("sessions %v, damaged %v", ids, damaged)
	}
}

func TestLoadProjectSalvages(t *testing.T) {
	k := registerTally(t)
	st, reports := testStore(t)
	// The tally's ids and the anchors decode; governance does not; the
	// tally's counter was lost.
	bad := []byte(`{"v":1,"tally_ids":[7],"anchors":[{"id":3,"kind":"fact","priority":"high","text":"a"}],"next_anchor":3,"governance":{"locks":"oops"}}`)
	put(t, st, bucketProject, keyProject, bad)
	view(t, st, func(tx *store.Tx) error {
		var d *DamagedError
		if _, err := LoadProject(tx); !errors.As(err, &d) || d.Kind != "project" {
			t.Errorf("view: %v", err)
		}
		return nil
	})
	update(t, st, func(tx *store.Tx) error {
		return UpdateProject(tx, func(p *Project) error {
			// The anchors are a feature's group, seen through the JSON.
			js, err := json.Marshal(p)
			if err != nil || !reflect.DeepEqual(k.Read(p).IDs, []int{7}) || !strings.Contains(string(js), `"anchors":[{"id":3,`) {
				t.Errorf("salvaged %s (%v)", js, err)
			}
			if p.Salvaged == nil || len(p.Salvaged.Lost) != 1 || !strings.HasPrefix(p.Salvaged.Lost[0], "governance (intent locks") {
				t.Errorf("salvage note %+v", p.Salvaged)
			}
			if g := k.Of(p); g.Next != 7 {
				t.Errorf("the counter is %d, behind the ids kept", g.Next)
			} else {
				g.Next++
				g.IDs = append(g.IDs, g.Next)
			}
			return nil
		})
	})
	if len(*reports) != 1 || !strings.Contains((*reports)[0], "PROJECT STATE DAMAGED") || !strings.Contains((*reports)[0], "LOST: governance") {
		t.Errorf("reports %q", *reports)
	}
	view(t, st, func(tx *store.Tx) error {
		p, err := LoadProject(tx)
		if err != nil || !reflect.DeepEqual(k.Read(p).IDs, []int{7, 8}) {
			t.Errorf("after the repair: %+v %v", p, err)
		}
		qs, _ := QuarantinedRecords(tx)
		if len(qs) != 1 || qs[0].Kind != "project" || strings.Join(qs[0].Lost, ",") != "governance" || !bytes.Equal(qs[0].Data, bad) {
			t.Errorf("quarantine %+v", qs)
		}
		return nil
	})
}

func TestQuarantineIsBounded(t *testing.T) {
	st, _ := testStore(t)
	update(t, st, func(tx *store.Tx) error {
		for i := range MaxQuarantined + 5 {
			if err := tx.Put(bucketSessions, "s", []byte("x")); err != nil {
				return err
			}
			if _, err := LoadSession(tx, "s", "", t0.Add(time.Duration(i)*time.Second)); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, st, func(tx *store.Tx) error {
		qs, _ := QuarantinedRecords(tx)
		if len(qs) != MaxQuarantined || !qs[0].Time.Equal(t0.Add(5*time.Second)) {
			t.Errorf("%d entries, oldest %v", len(qs), qs[0].Time)
		}
		return nil
	})
}

func TestPrune(t *testing.T) {
	st, _ := testStore(t)
	now := t0.Add(40 * 24 * time.Hour)
	put(t, st, bucketSessions, "old", goodSession(t, "old", t0))
	put(t, st, bucketSessions, "recent", goodSession(t, "recent", now.Add(-time.Hour)))
	put(t, st, bucketSessions, "current", goodSession(t, "current", t0)) // old, but its event is the one at hand
	put(t, st, bucketSessions, "v1", []byte(sessionV1Record))            // updated 2026-11-20: old
	put(t, st, bucketSessions, "damaged", []byte("{"))
	update(t, st, func(tx *store.Tx) error {
		// An old quarantine entry, and the damaged record's (made now) stays.
		return putQuarantine(tx, Quarantined{Kind: "session", Key: "older", Time: t0, Data: []byte("x")})
	})
	k := registerTally(t)
	p := &Project{}
	k.Of(p).Holders = []string{"old", "recent"}
	if !p.PruneDue(now) {
		t.Fatal("a project never pruned is not due")
	}
	var got PruneCounts
	update(t, st, func(tx *store.Tx) error {
		var err error
		got, err = Prune(tx, p, "current", now, 30*24*time.Hour)
		return err
	})
	if got != (PruneCounts{Sessions: 2, Quarantined: 1, Damaged: 1}) {
		t.Errorf("pruned %+v", got)
	}
	if p.PruneDue(now.Add(time.Hour)) || !p.PruneDue(now.Add(25*time.Hour)) {
		t.Errorf("due again too soon or never: pruned at %v", p.Pruned)
	}
	if PruneGroups()&k.Group() == 0 {
		t.Errorf("PruneGroups %v: not the tally, which refers to sessions", PruneGroups())
	}
	if h := k.Read(p).Holders; len(h) != 1 || h[0] != "recent" {
		t.Errorf("a group refers to sessions %v after the prune, want recent only", h)
	}
	view(t, st, func(tx *store.Tx) error {
		var ids []string
		if _, err := Sessions(tx, func(s *Session) error { ids = append(ids, s.ID); return nil }); err != nil {
			return err
		}
		if strings.Join(ids, ",") != "current,recent" {
			t.Errorf("left %v", ids)
		}
		qs, _ := QuarantinedRecords(tx)
		if len(qs) != 1 || qs[0].Key != "damaged" {
			t.Errorf("quarantine %+v", qs)
		}
		return nil
	})
	// Zero keeps everything.
	update(t, st, func(tx *store.Tx) error {
		n, err := Prune(tx, p, "", now.Add(400*24*time.Hour), 0)
		if n != (PruneCounts{}) {
			t.Errorf("age 0 pruned %+v", n)
		}
		return err
	})
}
