package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// rawDB writes a state file directly with bbolt, the way an older or newer
// atreides (or a test) would have left it.
func rawDB(t *testing.T, s *Store, fn func(btx *bolt.Tx) error) {
	t.Helper()
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(s.Path(), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func put(btx *bolt.Tx, bucket, key, val string) error {
	b, err := btx.CreateBucketIfNotExists([]byte(bucket))
	if err != nil {
		return err
	}
	return b.Put([]byte(key), []byte(val))
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func TestNewerSchemaIsRefusedAndUntouched(t *testing.T) {
	s, notes := newStore(t)
	rawDB(t, s, func(btx *bolt.Tx) error {
		if err := put(btx, metaBucket, keySchemaVersion, "7"); err != nil {
			return err
		}
		return put(btx, "sessions", "s1", "future format")
	})
	before := fileSum(t, s.Path())

	ops := map[string]func(context.Context, func(*Tx) error) error{"Update": s.Update, "View": s.View}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			called := false
			err := op(context.Background(), func(tx *Tx) error { tx.Get("a", "k"); called = true; return nil })
			var se *SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want *SchemaError", err)
			}
			if se.Found != 7 || se.Known != SchemaVersion {
				t.Errorf("SchemaError = %+v", se)
			}
			want := "has schema 7, this atreides understands up to " + strconv.Itoa(SchemaVersion) + "; upgrade atreides or move the file aside"
			if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), s.Path()) {
				t.Errorf("message %q lacks %q or the path", err, want)
			}
			if called {
				t.Error("fn ran on a file of a newer schema")
			}
			if fileSum(t, s.Path()) != before {
				t.Error("file changed")
			}
		})
	}
	if len(*notes) != 0 {
		t.Errorf("newer schema treated as corruption: %v", *notes)
	}
}

// fakeSchema pretends this code is at schema 2 and was at 0 (no meta bucket)
// and 1 before; each migration leaves a visible trace in the data.
func fakeSchema(fail bool) *schema {
	return &schema{version: 2, migrations: []Migration{
		0: func(tx *Tx) error {
			// v0 kept sessions as bare strings; v1 prefixes them.
			var keys []string
			if err := tx.ForEach("sessions", func(k string, v []byte) error {
				keys = append(keys, k)
				return nil
			}); err != nil {
				return err
			}
			for _, k := range keys {
				if err := tx.Put("sessions", k, append([]byte("v1:"), tx.Get("sessions", k)...)); err != nil {
					return err
				}
			}
			return nil
		},
		1: func(tx *Tx) error {
			if fail {
				_ = tx.Put("sessions", "s1", []byte("half-migrated"))
				return errors.New("migration 1 failed")
			}
			return tx.Put("sessions", "s1", append(tx.Get("sessions", "s1"), "+v2"...))
		},
	}}
}

func TestMigrationFromOlderSchema(t *testing.T) {
	tests := []struct {
		name     string
		viaView  bool
		initial  func(btx *bolt.Tx) error
		wantData string
	}{
		{"v0 via Update", false, func(btx *bolt.Tx) error { return put(btx, "sessions", "s1", "old") }, "v1:old+v2"},
		{"v0 via View", true, func(btx *bolt.Tx) error { return put(btx, "sessions", "s1", "old") }, "v1:old+v2"},
		{"v1 via Update", false, func(btx *bolt.Tx) error {
			if err := put(btx, metaBucket, keySchemaVersion, "1"); err != nil {
				return err
			}
			return put(btx, "sessions", "s1", "v1:x")
		}, "v1:x+v2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, notes := newStore(t)
			s.schema = fakeSchema(false)
			rawDB(t, s, tt.initial)
			var got string
			op := s.Update
			if tt.viaView {
				op = s.View
			}
			if err := op(context.Background(), func(tx *Tx) error {
				got = string(tx.Get("sessions", "s1"))
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			// fn saw the migrated data, and it was committed with the version.
			if got != tt.wantData {
				t.Errorf("fn saw %q, want %q", got, tt.wantData)
			}
			if v := mustGet(t, s, "sessions", "s1"); string(v) != tt.wantData {
				t.Errorf("stored %q, want %q", v, tt.wantData)
			}
			if v := mustGet(t, s, metaBucket, keySchemaVersion); string(v) != "2" {
				t.Errorf("schema_version = %q, want 2", v)
			}
			// Migrated once: another Update leaves the data alone.
			mustUpdate(t, s, func(*Tx) error { return nil })
			if v := mustGet(t, s, "sessions", "s1"); string(v) != tt.wantData {
				t.Errorf("after second Update %q, want %q", v, tt.wantData)
			}
			if len(*notes) != 0 {
				t.Errorf("unexpected recovery: %v", *notes)
			}
		})
	}
}

func TestFailedMigrationLeavesFileAsItWas(t *testing.T) {
	s, _ := newStore(t)
	s.schema = fakeSchema(true)
	rawDB(t, s, func(btx *bolt.Tx) error { return put(btx, "sessions", "s1", "old") })
	before := fileSum(t, s.Path())

	called := false
	err := s.Update(context.Background(), func(tx *Tx) error { tx.Get("a", "k"); called = true; return nil })
	if err == nil || !strings.Contains(err.Error(), "migration 1 failed") || !strings.Contains(err.Error(), "from schema 1 to 2") {
		t.Fatalf("err = %v", err)
	}
	if called {
		t.Error("fn ran after a failed migration")
	}
	// bbolt rolls back the whole transaction, including step 0->1.
	s.schema = &currentSchema
	db, err := bolt.Open(s.Path(), 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_ = db.View(func(btx *bolt.Tx) error {
		if btx.Bucket([]byte(metaBucket)) != nil {
			t.Error("meta bucket written by a failed migration")
		}
		if v := btx.Bucket([]byte("sessions")).Get([]byte("s1")); !bytes.Equal(v, []byte("old")) {
			t.Errorf("data = %q, want old", v)
		}
		return nil
	})
	// A rolled-back bbolt transaction writes nothing at all.
	if fileSum(t, s.Path()) != before {
		t.Error("file bytes changed")
	}
}

func TestOlderSchemaWithoutMigration(t *testing.T) {
	s, _ := newStore(t)
	s.schema = &schema{version: 3, migrations: []Migration{}}
	rawDB(t, s, func(btx *bolt.Tx) error { return put(btx, metaBucket, keySchemaVersion, "2") })
	err := s.Update(context.Background(), openDatabase)
	var se *SchemaError
	if !errors.As(err, &se) || se.Found != 2 || se.Known != 3 {
		t.Fatalf("err = %v, want SchemaError 2 of 3", err)
	}
	if !strings.Contains(err.Error(), "no migration") {
		t.Errorf("message: %v", err)
	}
}

// TestSchemaOneIsMigrated: a file of schema 1 (before binary records) is
// taken to the current schema with its data untouched, so that an older
// atreides refuses it instead of mistaking binary records for damage (or
// missing record files).
func TestSchemaOneIsMigrated(t *testing.T) {
	s, _ := newStore(t)
	rawDB(t, s, func(btx *bolt.Tx) error {
		if err := put(btx, metaBucket, keySchemaVersion, "1"); err != nil {
			return err
		}
		return put(btx, "sessions", "s1", "old")
	})
	mustUpdate(t, s, openDatabase)
	if v := mustGet(t, s, metaBucket, keySchemaVersion); string(v) != strconv.Itoa(SchemaVersion) {
		t.Errorf("schema %q, want %d", v, SchemaVersion)
	}
	if v := mustGet(t, s, "sessions", "s1"); string(v) != "old" {
		t.Errorf("data %q", v)
	}
}

// openDatabase is an Update's function that only makes it open the
// database (which an Update does on the first bucket asked for).
func openDatabase(tx *Tx) error {
	tx.Get("a", "k")
	return nil
}
