package store

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// newStore gives each test its own .atreides directory (not yet created)
// and counts recovery notices.
func newStore(t *testing.T) (*Store, *[]string) {
	t.Helper()
	s := Open(filepath.Join(t.TempDir(), ".atreides"))
	s.Version = "v0.0.0-test"
	var notes []string
	s.OnRecover = func(msg string) { notes = append(notes, msg) }
	return s, &notes
}

// withStore runs fn on a new store. The conformance suite (package
// storetest, run against every back end by package pgstore) has its own
// versions of these tests; these also check the file's own consistency.
func withStore(t *testing.T, fn func(t *testing.T, s *Store, notes *[]string)) {
	s, notes := newStore(t)
	fn(t, s, notes)
}

func mustUpdate(t *testing.T, s *Store, fn func(tx *Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

func mustGet(t *testing.T, s *Store, bucket, key string) []byte {
	t.Helper()
	var v []byte
	if err := s.View(context.Background(), func(tx *Tx) error { v = tx.Get(bucket, key); return nil }); err != nil {
		t.Fatalf("View: %v", err)
	}
	return v
}

func TestPutGetDelete(t *testing.T) {
	s, notes := newStore(t)
	mustUpdate(t, s, func(tx *Tx) error {
		for _, kv := range [][3]string{{"a", "k1", "v1"}, {"a", "k2", "v2"}, {"b", "k1", "other"}, {"a", "empty", ""}} {
			if err := tx.Put(kv[0], kv[1], []byte(kv[2])); err != nil {
				return err
			}
		}
		// Reads in the same transaction see the writes.
		if got := tx.Get("a", "k1"); string(got) != "v1" {
			t.Errorf("Get in same tx = %q, want v1", got)
		}
		return tx.Delete("a", "k2")
	})
	mustUpdate(t, s, func(tx *Tx) error {
		// Deleting what is not there is fine.
		if err := tx.Delete("a", "nope"); err != nil {
			return err
		}
		return tx.Delete("nobucket", "nope")
	})

	tests := []struct {
		bucket, key string
		want        []byte // nil: absent
	}{
		{"a", "k1", []byte("v1")},
		{"a", "k2", nil},
		{"b", "k1", []byte("other")},
		{"a", "empty", []byte{}},
		{"a", "missing", nil},
		{"nobucket", "k1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.bucket+"/"+tt.key, func(t *testing.T) {
			got := mustGet(t, s, tt.bucket, tt.key)
			if (got == nil) != (tt.want == nil) || !bytes.Equal(got, tt.want) {
				t.Errorf("Get = %q (nil %v), want %q (nil %v)", got, got == nil, tt.want, tt.want == nil)
			}
		})
	}
	if len(*notes) != 0 {
		t.Errorf("unexpected recovery: %v", *notes)
	}
}

func TestValuesAreCopied(t *testing.T) {
	s, _ := newStore(t)
	buf := []byte("original")
	mustUpdate(t, s, func(tx *Tx) error {
		if err := tx.Put("a", "k", buf); err != nil {
			return err
		}
		copy(buf, "CHANGED!") // after Put, before commit
		return nil
	})
	var got []byte
	mustUpdate(t, s, func(tx *Tx) error {
		got = tx.Get("a", "k")
		got[0] = 'X' // writing to bbolt's read-only map would fault
		return nil
	})
	if string(got) != "Xriginal" {
		t.Errorf("value kept after tx = %q", got)
	}
	if v := mustGet(t, s, "a", "k"); string(v) != "original" {
		t.Errorf("stored = %q, want original", v)
	}
}

func TestAppendLastForEach(t *testing.T) {
	s, _ := newStore(t)
	mustUpdate(t, s, func(tx *Tx) error {
		if seq, val := tx.Last("hist"); seq != 0 || val != nil {
			t.Errorf("Last of missing bucket = %d, %q", seq, val)
		}
		for i, v := range []string{"one", "two", "three"} {
			seq, err := tx.Append("hist", []byte(v))
			if err != nil {
				return err
			}
			if seq != uint64(i+1) {
				t.Errorf("Append %s: seq %d, want %d", v, seq, i+1)
			}
		}
		return nil
	})
	mustUpdate(t, s, func(tx *Tx) error {
		_, err := tx.Append("hist", []byte("four"))
		return err
	})
	err := s.View(context.Background(), func(tx *Tx) error {
		seq, val := tx.Last("hist")
		if seq != 4 || string(val) != "four" {
			t.Errorf("Last = %d, %q; want 4, four", seq, val)
		}
		var seqs []uint64
		var vals []string
		err := tx.ForEach("hist", func(k string, v []byte) error {
			n, ok := KeySeq(k)
			if !ok {
				t.Errorf("key %q is not a sequence key", k)
			}
			seqs = append(seqs, n)
			vals = append(vals, string(v))
			return nil
		})
		if got := strings.Join(vals, ","); got != "one,two,three,four" {
			t.Errorf("ForEach values = %s", got)
		}
		if len(seqs) != 4 || seqs[0] != 1 || seqs[3] != 4 {
			t.Errorf("ForEach seqs = %v", seqs)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestForEach(t *testing.T) {
	s, notes := newStore(t)
	mustUpdate(t, s, func(tx *Tx) error {
		for _, k := range []string{"c", "a", "b"} {
			if err := tx.Put("m", k, []byte("v"+k)); err != nil {
				return err
			}
		}
		return nil
	})
	stop := errors.New("stop")
	tests := []struct {
		name    string
		bucket  string
		stopAt  string
		want    string
		wantErr error
	}{
		{"all in key order", "m", "", "a=va,b=vb,c=vc", nil},
		{"error stops and is returned", "m", "b", "a=va,b=vb", stop},
		{"missing bucket", "none", "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen []string
			err := s.View(context.Background(), func(tx *Tx) error {
				return tx.ForEach(tt.bucket, func(k string, v []byte) error {
					seen = append(seen, k+"="+string(v))
					if k == tt.stopAt {
						return stop
					}
					return nil
				})
			})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if got := strings.Join(seen, ","); got != tt.want {
				t.Errorf("saw %s, want %s", got, tt.want)
			}
		})
	}
	if len(*notes) != 0 {
		t.Errorf("unexpected recovery: %v", *notes)
	}
}

func TestUpdateRollsBack(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		fn      func(tx *Tx) error
		wantErr func(error) bool
	}{
		{"error", func(tx *Tx) error {
			_ = tx.Put("a", "k", []byte("new"))
			return boom
		}, func(err error) bool { return errors.Is(err, boom) }},
		{"panic", func(tx *Tx) error {
			_ = tx.Put("a", "k", []byte("new"))
			panic("bug in caller")
		}, func(err error) bool { return err != nil && strings.Contains(err.Error(), "bug in caller") }},
		{"panic in ForEach callback", func(tx *Tx) error {
			_ = tx.Put("a", "k", []byte("new"))
			return tx.ForEach("a", func(string, []byte) error { panic("bug in callback") })
		}, func(err error) bool { return err != nil && strings.Contains(err.Error(), "bug in callback") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, notes := newStore(t)
			mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("old")) })
			err := s.Update(context.Background(), tt.fn)
			if !tt.wantErr(err) {
				t.Fatalf("Update err = %v", err)
			}
			if v := mustGet(t, s, "a", "k"); string(v) != "old" {
				t.Errorf("after failed Update: %q, want old", v)
			}
			// A bug in the caller is not damage to the file.
			if len(*notes) != 0 {
				t.Errorf("caller's failure treated as corruption: %v", *notes)
			}
			if m, _ := filepath.Glob(s.Path() + ".corrupt-*"); len(m) != 0 {
				t.Errorf("file moved aside: %v", m)
			}
		})
	}
}

func TestTxMisuse(t *testing.T) {
	s, _ := newStore(t)
	mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("v")) })

	var kept *Tx
	mustUpdate(t, s, func(tx *Tx) error { kept = tx; return nil })
	if err := kept.Put("a", "k", []byte("late")); !errors.Is(err, ErrTxDone) {
		t.Errorf("Put after tx: %v, want ErrTxDone", err)
	}
	if v := kept.Get("a", "k"); v != nil {
		t.Errorf("Get after tx = %q, want nil", v)
	}
	if err := kept.ForEach("a", func(string, []byte) error { return nil }); !errors.Is(err, ErrTxDone) {
		t.Errorf("ForEach after tx: %v, want ErrTxDone", err)
	}

	err := s.Update(context.Background(), func(tx *Tx) error { return tx.Put(metaBucket, keySchemaVersion, []byte("9")) })
	if !errors.Is(err, ErrReservedBucket) {
		t.Errorf("Put to meta: %v, want ErrReservedBucket", err)
	}

	err = s.View(context.Background(), func(tx *Tx) error {
		for _, err := range []error{
			tx.Put("a", "k", nil),
			tx.Delete("a", "k"),
			func() error { _, err := tx.Append("h", nil); return err }(),
		} {
			if !errors.Is(err, ErrReadOnly) {
				t.Errorf("write in View: %v, want ErrReadOnly", err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if v := mustGet(t, s, "a", "k"); string(v) != "v" {
		t.Errorf("value changed by refused writes: %q", v)
	}
}

func TestViewOfMissingStoreCreatesNothing(t *testing.T) {
	tests := []struct {
		name   string
		mkdir  bool
		zeroDB bool
	}{
		{"no directory", false, false},
		{"empty directory", true, false},
		{"zero-length database", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, notes := newStore(t)
			if tt.mkdir {
				if err := os.Mkdir(s.Dir(), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if tt.zeroDB {
				if err := os.WriteFile(s.Path(), nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			called := false
			err := s.View(context.Background(), func(tx *Tx) error {
				called = true
				if v := tx.Get("a", "k"); v != nil {
					t.Errorf("Get = %q", v)
				}
				if seq, v := tx.Last("h"); seq != 0 || v != nil {
					t.Errorf("Last = %d, %q", seq, v)
				}
				return tx.ForEach("a", func(string, []byte) error { t.Error("ForEach called"); return nil })
			})
			if err != nil || !called {
				t.Fatalf("View: err %v, called %v", err, called)
			}
			ents, err := os.ReadDir(s.Dir())
			switch {
			case !tt.mkdir && !errors.Is(err, fs.ErrNotExist):
				t.Errorf("View created the directory (%v)", err)
			case tt.mkdir && !tt.zeroDB && len(ents) != 0:
				t.Errorf("View created files: %v", ents)
			case tt.zeroDB && len(ents) != 1:
				t.Errorf("View created or removed files: %v", ents)
			}
			if len(*notes) != 0 {
				t.Errorf("unexpected recovery: %v", *notes)
			}
		})
	}
}

func TestFirstUpdateLaysOutDirectory(t *testing.T) {
	s, _ := newStore(t)
	mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("v")) })

	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("state.db mode %v, want 0600", perm)
	}
	gi, err := os.ReadFile(filepath.Join(s.Dir(), ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, line := range strings.Split(string(gi), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			patterns = append(patterns, line)
		}
	}
	ignored := func(name string) bool {
		for _, p := range patterns {
			if ok, _ := filepath.Match(p, name); ok {
				return true
			}
		}
		return false
	}
	for name, want := range map[string]bool{
		"state.db": true, "state.db.lock": true, "state.db.corrupt-20260101T000000.000Z": true, "log": true, "log.1": true,
		"audit.jsonl": true, "audit-20261123T231135.123456789Z-42.jsonl": true,
		"trace.jsonl.pending/": true, "trace.jsonl.corrupt-20260101T000000.000Z-abcdef": true, "sessions/": true,
		"config.yaml": false, "intents.yaml": false, "trace.jsonl": false, ".gitignore": false,
	} {
		if got := ignored(name); got != want {
			t.Errorf("%s ignored = %v, want %v", name, got, want)
		}
	}
	ents, _ := os.ReadDir(s.Dir())
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}

	// The creator is recorded; a user's own .gitignore is never replaced.
	err = s.View(context.Background(), func(tx *Tx) error {
		if got := string(tx.Get(metaBucket, keySchemaVersion)); got != strconv.Itoa(SchemaVersion) {
			t.Errorf("schema_version = %q", got)
		}
		if got := string(tx.Get(metaBucket, keyCreatedBy)); got != "v0.0.0-test" {
			t.Errorf("created_by = %q", got)
		}
		if tx.Get(metaBucket, keyCreatedAt) == nil {
			t.Error("no created_at")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	s2, _ := newStore(t)
	if err := os.Mkdir(s2.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	mine := []byte("# mine\n")
	if err := os.WriteFile(filepath.Join(s2.Dir(), ".gitignore"), mine, 0o644); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, s2, func(tx *Tx) error { return tx.Put("a", "k", []byte("v")) })
	if got, _ := os.ReadFile(filepath.Join(s2.Dir(), ".gitignore")); !bytes.Equal(got, mine) {
		t.Errorf("user's .gitignore replaced: %q", got)
	}
}

// TestReportAfterCommit: a caller's repair notice reaches OnRecover only
// when the transaction that made the repair committed.
func TestReportAfterCommit(t *testing.T) {
	s, notes := newStore(t)
	ctx := context.Background()
	fail := errors.New("rolled back")
	if err := s.Update(ctx, func(tx *Tx) error { tx.Report("lost"); return fail }); !errors.Is(err, fail) {
		t.Fatal(err)
	}
	if err := s.View(ctx, func(tx *Tx) error {
		if tx.Writable() {
			t.Error("a view is writable")
		}
		tx.Report("seen")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(*notes) != 0 {
		t.Fatalf("notes before any commit: %q", *notes)
	}
	var escaped *Tx
	mustUpdate(t, s, func(tx *Tx) error {
		if !tx.Writable() {
			t.Error("an update is not writable")
		}
		escaped = tx
		tx.Report("moved aside")
		if len(*notes) != 0 {
			t.Error("told before the commit")
		}
		return nil
	})
	if strings.Join(*notes, "|") != "moved aside" {
		t.Errorf("notes %q", *notes)
	}
	if escaped.Writable() {
		t.Error("a finished transaction is writable")
	}
}

// TestUpdateWithoutWritesCommitsNothing: an Update whose function only
// reads leaves the file byte for byte as it was (no commit, so no fsync);
// one that writes commits.
func TestUpdateWithoutWritesCommitsNothing(t *testing.T) {
	s, _ := newStore(t)
	mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("v")) })
	before, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, s, func(tx *Tx) error {
		if string(tx.Get("a", "k")) != "v" {
			t.Error("value not read")
		}
		return tx.Delete("a", "missing") // a Delete counts as a write, found or not
	})
	after, _ := os.ReadFile(s.Path())
	if bytes.Equal(before, after) {
		t.Error("an Update that deleted did not commit")
	}
	mustUpdate(t, s, func(tx *Tx) error { _ = tx.Get("a", "k"); return nil })
	again, _ := os.ReadFile(s.Path())
	if !bytes.Equal(after, again) {
		t.Error("an Update that wrote nothing changed the file")
	}
}
