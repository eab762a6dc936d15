package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// listing is the names in the store's directory, nil if there is none.
func listing(t *testing.T, s *Store) []string {
	t.Helper()
	es, err := os.ReadDir(s.Dir())
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// A verifier reads the state as it is: before, trace verify went through
// View, which moved a damaged file aside and then showed an empty store.
// ViewNoRepair reports the damage and leaves every byte and name as found.
func TestViewNoRepairLeavesDamageAlone(t *testing.T) {
	cases := append(slices.Clone(damages), struct {
		name   string
		damage func(db []byte) []byte
		empty  bool
	}{"empty file", func([]byte) []byte { return nil }, false})
	for _, d := range cases {
		t.Run(d.name, func(t *testing.T) {
			s, notes, bad := damagedStore(t, d.damage, d.empty)
			names := listing(t, s)
			runs := 0
			err := s.ViewNoRepair(context.Background(), func(*Tx) error { runs++; return nil })
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("ViewNoRepair = %v, want ErrCorrupt", err)
			}
			if got, _ := os.ReadFile(s.Path()); !bytes.Equal(got, bad) {
				t.Error("the state file changed")
			}
			if got := listing(t, s); !slices.Equal(got, names) {
				t.Errorf("directory was %v, is %v", names, got)
			}
			if len(*notes) != 0 || runs > 1 {
				t.Errorf("recovery notices %q, fn ran %d times", *notes, runs)
			}
		})
	}
}

// ViewNoRepair creates nothing: no directory for a missing store, no lock
// file beside a state file copied in without one (it reads under bbolt's
// own lock then), and it does not migrate an older schema.
func TestViewNoRepairCreatesNothing(t *testing.T) {
	s, _ := newStore(t)
	runs := 0
	if err := s.ViewNoRepair(context.Background(), func(tx *Tx) error { runs++; return nil }); err != nil || runs != 1 {
		t.Fatalf("missing store: %v, %d runs", err, runs)
	}
	if _, err := os.Stat(s.Dir()); !os.IsNotExist(err) {
		t.Fatalf("directory created: %v", err)
	}

	mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("v")) })
	if err := os.Remove(filepath.Join(s.Dir(), LockFile)); err != nil {
		t.Fatal(err)
	}
	names := listing(t, s)
	var v []byte
	if err := s.ViewNoRepair(context.Background(), func(tx *Tx) error { v = tx.Get("a", "k"); return nil }); err != nil || string(v) != "v" {
		t.Fatalf("without a lock file: %q %v", v, err)
	}
	if got := listing(t, s); !slices.Equal(got, names) {
		t.Errorf("directory was %v, is %v", names, got)
	}

	old, _ := newStore(t)
	old.schema = &schema{version: 3, migrations: []Migration{2: func(*Tx) error { return nil }}}
	rawDB(t, old, func(btx *bolt.Tx) error { return put(btx, metaBucket, keySchemaVersion, "2") })
	before := fileSum(t, old.Path())
	var se *SchemaError
	if err := old.ViewNoRepair(context.Background(), func(*Tx) error { return nil }); !errors.As(err, &se) || se.Found != 2 {
		t.Fatalf("older schema: %v", err)
	}
	if fileSum(t, old.Path()) != before {
		t.Error("older schema migrated")
	}
}
