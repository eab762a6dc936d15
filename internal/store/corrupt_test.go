package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// realDB fills the store with enough data to span many pages and returns
// the file's bytes.
func realDB(t *testing.T, s *Store) []byte {
	t.Helper()
	mustUpdate(t, s, func(tx *Tx) error {
		for i := range 300 {
			if err := tx.Put("sessions", fmt.Sprintf("s%04d", i), bytes.Repeat([]byte{byte(i)}, 200)); err != nil {
				return err
			}
			if _, err := tx.Append("history", bytes.Repeat([]byte("h"), 100)); err != nil {
				return err
			}
		}
		return nil
	})
	b, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 64<<10 {
		t.Fatalf("test database only %d bytes", len(b))
	}
	return b
}

func random(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// damages maps a real, healthy database file to a damaged one.
var damages = []struct {
	name   string
	damage func(db []byte) []byte
	empty  bool // damage an empty 4-page bbolt file instead of a full one
}{
	{"garbage 8 KiB", func([]byte) []byte { return random(1, 8192) }, false},
	{"garbage 100 bytes", func([]byte) []byte { return random(2, 100) }, false},
	{"text file", func([]byte) []byte { return []byte("{\"session\": \"not a database\"}\n") }, false},
	{"truncated inside second meta page", func(db []byte) []byte { return db[:5000] }, false},
	{"truncated to meta pages", func(db []byte) []byte { return db[:2*4096] }, false},
	{"truncated mid-file", func(db []byte) []byte { return db[:100000] }, false},
	{"meta pages zeroed", func(db []byte) []byte {
		out := bytes.Clone(db)
		clear(out[:2*4096])
		return out
	}, false},
	{"data pages overwritten", func(db []byte) []byte {
		out := bytes.Clone(db)
		copy(out[2*4096:], random(3, len(db)-2*4096))
		return out
	}, false},
	{"meta points past end of file (SIGBUS)", pointRootPastEOF, true},
	{"schema_version unreadable", nil, false}, // built by hand below
}

// pointRootPastEOF rewrites both meta pages of an empty bbolt file (4 pages,
// mapped as 8) so that the root bucket lives on page 6: valid checksums,
// but reading the root touches mapped memory beyond the end of the file,
// which the kernel answers with SIGBUS. Layout (bbolt internal/common):
// 16-byte page header, then magic, version, pageSize, flags (uint32 each),
// root pgid, root sequence, freelist pgid, high-water pgid, txid, checksum
// (uint64 each, native byte order), checksum = FNV-64a of what precedes it.
func pointRootPastEOF(db []byte) []byte {
	out := bytes.Clone(db)
	for _, off := range []int{0, 4096} {
		m := out[off+16:]
		binary.LittleEndian.PutUint64(m[16:], 6) // root
		binary.LittleEndian.PutUint64(m[40:], 8) // high-water mark
		h := fnv.New64a()
		h.Write(m[:56])
		binary.LittleEndian.PutUint64(m[56:], h.Sum64())
	}
	return out
}

// damagedStore returns a store whose state file has the named damage, and
// the damaged bytes.
func damagedStore(t *testing.T, damage func([]byte) []byte, empty bool) (*Store, *[]string, []byte) {
	t.Helper()
	s, notes := newStore(t)
	if empty {
		if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
			t.Fatal(err)
		}
		// The damage functions know a 4 KiB page layout: ask for it, so
		// the fixture is the same on a machine with larger pages.
		db, err := bolt.Open(s.Path()+".tmp", 0o600, &bolt.Options{PageSize: 4096})
		if err == nil {
			err = db.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(s.Path() + ".tmp")
		_ = os.Remove(s.Path() + ".tmp")
		if len(raw) != 4*4096 {
			t.Fatalf("empty bbolt file is %d bytes, not 4 pages of 4 KiB: the damage functions' layout no longer holds", len(raw))
		}
		bad := damage(raw)
		if err := os.WriteFile(s.Path(), bad, 0o600); err != nil {
			t.Fatal(err)
		}
		return s, notes, bad
	}
	if damage == nil {
		rawDB(t, s, func(btx *bolt.Tx) error { return put(btx, metaBucket, keySchemaVersion, "one") })
		b, _ := os.ReadFile(s.Path())
		return s, notes, b
	}
	bad := damage(realDB(t, s))
	if err := os.WriteFile(s.Path(), bad, 0o600); err != nil {
		t.Fatal(err)
	}
	return s, notes, bad
}

// checkMovedAside asserts exactly one recovery notice and that the damaged
// bytes were kept under state.db.corrupt-*.
func checkMovedAside(t *testing.T, s *Store, notes []string, bad []byte) {
	t.Helper()
	if len(notes) != 1 {
		t.Fatalf("recovery notices: %q, want exactly one", notes)
	}
	t.Log(notes[0])
	moved, _ := filepath.Glob(s.Path() + ".corrupt-*")
	if len(moved) != 1 {
		t.Fatalf("moved-aside files: %v", moved)
	}
	if !strings.Contains(notes[0], filepath.Base(moved[0])) || !strings.Contains(notes[0], s.Path()) {
		t.Errorf("notice %q does not name both files", notes[0])
	}
	if got, _ := os.ReadFile(moved[0]); !bytes.Equal(got, bad) {
		t.Errorf("moved-aside file differs from the damaged file (%d vs %d bytes)", len(got), len(bad))
	}
}

func TestCorruptFileRecoveredByUpdate(t *testing.T) {
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			s, notes, bad := damagedStore(t, d.damage, d.empty)
			mustUpdate(t, s, func(tx *Tx) error {
				if tx.Get("sessions", "s0001") != nil {
					t.Error("fn saw data from the damaged file")
				}
				return tx.Put("a", "k", []byte("fresh"))
			})
			checkMovedAside(t, s, *notes, bad)
			if v := mustGet(t, s, "a", "k"); string(v) != "fresh" {
				t.Errorf("after recovery Get = %q", v)
			}
			// The fresh file is healthy: no further recovery, no loop.
			mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k2", []byte("x")) })
			if len(*notes) != 1 {
				t.Errorf("more recoveries: %q", *notes)
			}
		})
	}
}

func TestCorruptFileRecoveredByView(t *testing.T) {
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			s, notes, bad := damagedStore(t, d.damage, d.empty)
			runs := 0
			err := s.View(context.Background(), func(tx *Tx) error {
				runs++
				return nil
			})
			if err != nil {
				t.Fatalf("View: %v", err)
			}
			if runs == 0 {
				t.Fatal("fn never ran")
			}
			checkMovedAside(t, s, *notes, bad)
			// View shows an empty store and creates no new database.
			if _, err := os.Stat(s.Path()); !os.IsNotExist(err) {
				t.Errorf("state.db after View: %v", err)
			}
			if v := mustGet(t, s, "sessions", "s0001"); v != nil {
				t.Errorf("Get after recovery = %q", v)
			}
			if len(*notes) != 1 {
				t.Errorf("more recoveries: %q", *notes)
			}
		})
	}
}

// TestEmptyFileIsReported: a zero-length state.db is what a process killed
// between creating the file and bbolt's first write leaves, or what a tool
// that truncated it leaves. Update starts it afresh like a damaged file and
// says so once; the store then works as usual.
func TestEmptyFileIsReported(t *testing.T) {
	s, notes := newStore(t)
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path(), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("v")) })
	if v := mustGet(t, s, "a", "k"); string(v) != "v" {
		t.Errorf("Get = %q", v)
	}
	if len(*notes) != 1 || !strings.Contains((*notes)[0], s.Path()+" was empty") || !strings.Contains((*notes)[0], "started with empty state") {
		t.Fatalf("reports = %q, want one naming the empty file", *notes)
	}
	mustUpdate(t, s, func(tx *Tx) error { return nil })
	if len(*notes) != 1 {
		t.Errorf("reported again: %q", *notes)
	}
}

// TestNewFileIsNotReported: the file the first Update creates is empty too
// for a moment; that is not lost state.
func TestNewFileIsNotReported(t *testing.T) {
	s, notes := newStore(t)
	mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("v")) })
	if len(*notes) != 0 {
		t.Errorf("reports = %q", *notes)
	}
}

// damageLeafOf overwrites the page holding key with garbage, leaving the
// meta pages, the freelist and the root intact: only a caller's read of
// that key runs into it, inside its own function.
func damageLeafOf(t *testing.T, s *Store, key string) []byte {
	t.Helper()
	db := realDB(t, s)
	const pg = 4096
	for off := 2 * pg; off+pg <= len(db); off += pg {
		if bytes.Contains(db[off:off+pg], []byte(key)) {
			bad := bytes.Clone(db)
			copy(bad[off:off+pg], random(4, pg))
			if err := os.WriteFile(s.Path(), bad, 0o600); err != nil {
				t.Fatal(err)
			}
			return bad
		}
	}
	t.Fatalf("no page holds %q", key)
	return nil
}

func TestDamageFoundInsideCallersRead(t *testing.T) {
	for _, op := range []string{"Update", "View"} {
		t.Run(op, func(t *testing.T) {
			s, notes := newStore(t)
			bad := damageLeafOf(t, s, "s0150")
			var seen [][]byte
			fn := func(tx *Tx) error {
				seen = append(seen, tx.Get("sessions", "s0150"))
				return nil
			}
			var err error
			if op == "Update" {
				err = s.Update(context.Background(), fn)
			} else {
				err = s.View(context.Background(), fn)
			}
			if err != nil {
				t.Fatalf("%s: %v", op, err)
			}
			// First run hit the damage (and was cut short); the second ran
			// on a fresh, empty store.
			if len(seen) != 1 || seen[0] != nil {
				t.Errorf("fn completed %d times, last saw %q; want once, nil", len(seen), seen)
			}
			checkMovedAside(t, s, *notes, bad)
		})
	}
}

func TestViewRecoveryLeavesAReplacedFileAlone(t *testing.T) {
	s, notes := newStore(t)
	mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("v")) })
	tests := []struct {
		name     string
		seen     func() os.FileInfo
		wantMove bool
	}{
		{"another file", func() os.FileInfo { fi, _ := os.Stat(s.Dir()); return fi }, false},
		{"same file, since rewritten", func() os.FileInfo {
			fi, _ := os.Stat(s.Path())
			mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("newer")) })
			return fi
		}, false},
		{"the very file", func() os.FileInfo { fi, _ := os.Stat(s.Path()); return fi }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.recoverForView(context.Background(), &corruption{cause: errors.New("seen damaged"), file: tt.seen()})
			if err != nil {
				t.Fatal(err)
			}
			moved, _ := filepath.Glob(s.Path() + ".corrupt-*")
			if got := len(moved) == 1; got != tt.wantMove {
				t.Errorf("moved = %v (%v), want %v", got, moved, tt.wantMove)
			}
			if tt.wantMove != (len(*notes) == 1) {
				t.Errorf("notes: %q", *notes)
			}
		})
	}
}
