package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/confined"
)

const testSet = "sessions"

func putRecord(t *testing.T, s *Store, key string, val []byte) {
	t.Helper()
	mustUpdate(t, s, func(tx *Tx) error { return tx.PutRecord(testSet, key, val) })
}

func getRecord(t *testing.T, s *Store, key string) ([]byte, error) {
	t.Helper()
	var v []byte
	var rerr error
	if err := s.View(context.Background(), func(tx *Tx) error { v, rerr = tx.Record(testSet, key); return nil }); err != nil {
		t.Fatalf("View: %v", err)
	}
	return v, rerr
}

func recordPath(s *Store, key string) string {
	name, _ := recordName(key)
	return filepath.Join(s.Dir(), testSet, name)
}

// slotsOf parses both slots of key's file as they are on disk.
func slotsOf(t *testing.T, s *Store, key string) (vals [2]string, seqs [2]uint64, size int) {
	t.Helper()
	data, err := os.ReadFile(recordPath(s, key))
	if err != nil {
		t.Fatal(err)
	}
	size = len(data) / 2
	for i := range 2 {
		v, seq, err := parseSlot(data[i*size:(i+1)*size], key)
		if err == nil {
			vals[i], seqs[i] = string(v), seq
		}
	}
	return vals, seqs, size
}

func TestRecordAlternatesSlots(t *testing.T) {
	s, notes := newStore(t)
	if v, err := getRecord(t, s, "s1"); v != nil || err != nil {
		t.Fatalf("missing record: %q, %v", v, err)
	}
	for i, want := range []struct {
		val   string
		vals  [2]string
		seqs  [2]uint64
		value string
	}{
		{"one", [2]string{"one", ""}, [2]uint64{1, 0}, "one"},
		{"two", [2]string{"one", "two"}, [2]uint64{1, 2}, "two"},
		{"three", [2]string{"three", "two"}, [2]uint64{3, 2}, "three"},
	} {
		putRecord(t, s, "s1", []byte(want.val))
		vals, seqs, size := slotsOf(t, s, "s1")
		if vals != want.vals || seqs != want.seqs || size != recordPage {
			t.Errorf("write %d: slots %q seqs %v size %d, want %q %v %d", i, vals, seqs, size, want.vals, want.seqs, recordPage)
		}
		if v, err := getRecord(t, s, "s1"); string(v) != want.value || err != nil {
			t.Errorf("write %d: read %q, %v", i, v, err)
		}
	}
	if len(*notes) != 0 {
		t.Errorf("notes: %v", *notes)
	}
}

// TestRecordTornWrite stands in for a crash in the middle of a slot write:
// any byte of the newer slot changed, the previous value is read; both
// slots damaged, a RecordError with the file's bytes.
func TestRecordTornWrite(t *testing.T) {
	for _, off := range []int{0, 4, 8, 16, 20, 24, recordHeader, recordHeader + 2, recordHeader + 5} {
		s, _ := newStore(t)
		putRecord(t, s, "k", []byte("first"))
		putRecord(t, s, "k", []byte("second"))
		path := recordPath(s, "k")
		data, _ := os.ReadFile(path)
		data[recordPage+off] ^= 0x40 // slot 1 holds "second"
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if v, err := getRecord(t, s, "k"); string(v) != "first" || err != nil {
			t.Errorf("byte %d of the newer slot damaged: read %q, %v, want first", off, v, err)
		}
		// The next write goes to the damaged slot and keeps "first".
		putRecord(t, s, "k", []byte("third"))
		if vals, _, _ := slotsOf(t, s, "k"); vals != [2]string{"first", "third"} {
			t.Errorf("byte %d: after the next write slots hold %q", off, vals)
		}
		data, _ = os.ReadFile(path)
		data[off] ^= 0x40
		data[recordPage+off] ^= 0x40
		_ = os.WriteFile(path, data, 0o600)
		v, err := getRecord(t, s, "k")
		var re *RecordError
		if v != nil || !errors.As(err, &re) || !errors.Is(err, ErrRecordDamaged) || !bytes.Equal(re.Data, data) || re.Key != "k" {
			t.Errorf("byte %d of both slots damaged: %q, %v", off, v, err)
		}
	}
}

func TestRecordGrowsAndKeepsValue(t *testing.T) {
	s, _ := newStore(t)
	putRecord(t, s, "k", []byte("small"))
	big := bytes.Repeat([]byte("abcdefgh"), 1000) // 8000 bytes: more than a slot
	putRecord(t, s, "k", big)
	vals, seqs, size := slotsOf(t, s, "k")
	if vals[0] != string(big) || seqs[0] != 2 || size%recordPage != 0 || size < len(big)+recordHeader {
		t.Errorf("after growing: slot 0 %d bytes seq %d, slot size %d", len(vals[0]), seqs[0], size)
	}
	putRecord(t, s, "k", []byte("small again"))
	if v, _ := getRecord(t, s, "k"); string(v) != "small again" {
		t.Errorf("read %q", v)
	}
	if _, _, size2 := slotsOf(t, s, "k"); size2 != size {
		t.Errorf("slot size changed from %d to %d on a smaller value", size, size2)
	}
}

func TestRecordNewerFormatIsLeftAlone(t *testing.T) {
	s, _ := newStore(t)
	putRecord(t, s, "k", []byte("v"))
	path := recordPath(s, "k")
	data, _ := os.ReadFile(path)
	data[4] = recordFormat + 1
	binary.LittleEndian.PutUint64(data[24:], slotSum(data[:recordHeader], data[recordHeader:recordHeader+2]))
	_ = os.WriteFile(path, data, 0o600)
	if _, err := getRecord(t, s, "k"); !errors.Is(err, ErrRecordNewer) {
		t.Errorf("read of a newer file: %v", err)
	}
	err := s.Update(context.Background(), func(tx *Tx) error { return tx.PutRecord(testSet, "k", []byte("w")) })
	if !errors.Is(err, ErrRecordNewer) {
		t.Errorf("write over a newer file: %v", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, data) {
		t.Error("a newer file was changed")
	}
}

func TestRecordOfAnotherKeyIsNotRead(t *testing.T) {
	s, _ := newStore(t)
	putRecord(t, s, "a", []byte("of a"))
	if err := os.Rename(recordPath(s, "a"), recordPath(s, "b")); err != nil {
		t.Fatal(err)
	}
	if v, err := getRecord(t, s, "b"); v != nil || !errors.Is(err, ErrRecordDamaged) {
		t.Errorf("b's file holding a's record: %q, %v", v, err)
	}
	putRecord(t, s, "b", []byte("of b"))
	if v, err := getRecord(t, s, "b"); string(v) != "of b" || err != nil {
		t.Errorf("after writing b: %q, %v", v, err)
	}
}

func TestRecordTransaction(t *testing.T) {
	s, _ := newStore(t)
	putRecord(t, s, "keep", []byte("k"))
	putRecord(t, s, "gone", []byte("g"))

	// A failing Update writes no record.
	boom := errors.New("boom")
	err := s.Update(context.Background(), func(tx *Tx) error {
		if err := tx.PutRecord(testSet, "keep", []byte("changed")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if v, _ := getRecord(t, s, "keep"); string(v) != "k" {
		t.Errorf("rolled back Update wrote %q", v)
	}

	// Writes and removals are seen inside the transaction, in key order.
	mustUpdate(t, s, func(tx *Tx) error {
		for _, err := range []error{tx.PutRecord(testSet, "new", []byte("n")), tx.DeleteRecord(testSet, "gone"), tx.PutRecord(testSet, "keep", []byte("k2"))} {
			if err != nil {
				return err
			}
		}
		if v, _ := tx.Record(testSet, "gone"); v != nil {
			t.Errorf("removed record read as %q", v)
		}
		if got := listRecords(t, tx); got != "keep=k2 new=n" {
			t.Errorf("inside the Update: %s", got)
		}
		return nil
	})
	var got string
	_ = s.View(context.Background(), func(tx *Tx) error { got = listRecords(t, tx); return nil })
	if got != "keep=k2 new=n" {
		t.Errorf("after the Update: %s", got)
	}
	if _, err := os.Stat(recordPath(s, "gone")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("removed record's file: %v", err)
	}

	// Read-only and finished transactions refuse writes.
	var escaped *Tx
	_ = s.View(context.Background(), func(tx *Tx) error {
		escaped = tx
		if err := tx.PutRecord(testSet, "x", nil); !errors.Is(err, ErrReadOnly) {
			t.Errorf("PutRecord in View: %v", err)
		}
		return nil
	})
	if _, err := escaped.Record(testSet, "keep"); !errors.Is(err, ErrTxDone) {
		t.Errorf("Record after the View: %v", err)
	}
}

func listRecords(t *testing.T, tx *Tx) string {
	var out []string
	err := tx.ForEachRecord(testSet, func(k string, v []byte, err error) error {
		if err != nil {
			t.Errorf("record %s: %v", k, err)
		}
		out = append(out, k+"="+string(v))
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	return strings.Join(out, " ")
}

func TestRecordDamagedInListing(t *testing.T) {
	s, _ := newStore(t)
	putRecord(t, s, "a", []byte("1"))
	putRecord(t, s, "b", []byte("2"))
	_ = os.WriteFile(recordPath(s, "a"), []byte("junk"), 0o600)
	_ = os.WriteFile(filepath.Join(s.Dir(), testSet, "notes.txt"), []byte("x"), 0o600) // not a record name
	var got []string
	_ = s.View(context.Background(), func(tx *Tx) error {
		return tx.ForEachRecord(testSet, func(k string, v []byte, err error) error {
			got = append(got, k+"="+string(v)+"/"+boolStr(errors.Is(err, ErrRecordDamaged)))
			return nil
		})
	})
	if strings.Join(got, " ") != "a=/damaged b=2/ok" {
		t.Errorf("listing: %v", got)
	}
}

func boolStr(damaged bool) string {
	if damaged {
		return "damaged"
	}
	return "ok"
}

func TestRecordLinkRefused(t *testing.T) {
	s, _ := newStore(t)
	putRecord(t, s, "a", []byte("1"))
	outside := filepath.Join(t.TempDir(), "victim")
	_ = os.WriteFile(outside, []byte("mine"), 0o600)
	_ = os.Remove(recordPath(s, "a"))
	if err := os.Symlink(outside, recordPath(s, "a")); err != nil {
		t.Fatal(err)
	}
	if _, err := getRecord(t, s, "a"); !errors.Is(err, confined.ErrRefused) {
		t.Errorf("read through a link: %v", err)
	}
	err := s.Update(context.Background(), func(tx *Tx) error { return tx.PutRecord(testSet, "a", []byte("2")) })
	if !errors.Is(err, confined.ErrRefused) {
		t.Errorf("write through a link: %v", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "mine" {
		t.Errorf("file behind the link now holds %q", b)
	}
}

func TestRecordNames(t *testing.T) {
	for _, tc := range []struct{ key, name string }{
		{"0b7e2f6a-1c2d-4e5f-8a9b-0c1d2e3f4a5b", "0b7e2f6a-1c2d-4e5f-8a9b-0c1d2e3f4a5b.rec"},
		{"ses_3fAb", "ses_3fAb.rec"},
		{"a.b", "a.b.rec"},
		{".hidden", "%2Ehidden.rec"},
		{"../x", "%2E.%2Fx.rec"},
		{"a b%", "a%20b%25.rec"},
		{"é", "%C3%A9.rec"},
	} {
		name, err := recordName(tc.key)
		if name != tc.name || err != nil {
			t.Errorf("recordName(%q) = %q, %v; want %q", tc.key, name, err, tc.name)
		}
		if k, ok := recordKey(name); k != tc.key || !ok {
			t.Errorf("recordKey(%q) = %q, %v", name, k, ok)
		}
	}
	for _, key := range []string{"", strings.Repeat("x", MaxRecordKey+1)} {
		if _, err := recordName(key); err == nil {
			t.Errorf("recordName of %d bytes: no error", len(key))
		}
	}
	for _, name := range []string{"x.txt", ".rec", "a%2.rec", "a%zz.rec", "%61.rec", ".x.rec", "a%2e.rec"} {
		if k, ok := recordKey(name); ok {
			t.Errorf("recordKey(%q) = %q: a name recordName does not make", name, k)
		}
	}
}

// FuzzRecordName: every key names one file of safe characters, and the
// name gives the key back.
func FuzzRecordName(f *testing.F) {
	for _, k := range []string{"abc", ".x", "a/b", "%", "ses_1", "\x00"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		name, err := recordName(key)
		if err != nil {
			if key != "" && len(key) <= MaxRecordKey/3 {
				t.Fatalf("recordName(%q): %v", key, err)
			}
			return
		}
		if strings.HasPrefix(name, ".") || strings.ContainsAny(name, "/\\\x00") || len(name) > maxRecordName {
			t.Fatalf("recordName(%q) = %q", key, name)
		}
		if k, ok := recordKey(name); !ok || k != key {
			t.Fatalf("recordKey(recordName(%q)) = %q, %v", key, k, ok)
		}
	})
}

// FuzzParseRecord: no slot content panics the reader, and what it reads
// is a value a writer put there: a value read is written back as the same
// slot, byte for byte. The fuzzer fills the two slots' beginnings (the
// rest is zero), so that it mutates a few bytes rather than pages.
func FuzzParseRecord(f *testing.F) {
	f.Add(encodeSlot("k", []byte("value"), 3, false), encodeSlot("k", []byte("older"), 2, false), "k")
	f.Add(encodeSlot("k", []byte("value"), 3, false), []byte("atrR"), "k")
	f.Add([]byte{}, encodeSlot("other", []byte("v"), 1, false), "k")
	f.Fuzz(func(t *testing.T, a, b []byte, key string) {
		if len(a) > recordPage || len(b) > recordPage {
			return
		}
		data := make([]byte, 2*recordPage)
		copy(data, a)
		copy(data[recordPage:], b)
		val, at, err := parseRecord(data, key)
		if err != nil {
			if at.slot != -1 || val != nil {
				t.Fatalf("error %v with a value", err)
			}
			return
		}
		slot := encodeSlot(key, val, at.seq, false)
		if !bytes.Equal(slot, data[at.slot*recordPage:at.slot*recordPage+len(slot)]) {
			t.Fatalf("read %q (seq %d) from slot %d, which does not hold it", val, at.seq, at.slot)
		}
	})
}

func TestParseRecordSizes(t *testing.T) {
	slot := encodeSlot("k", []byte("v"), 1, false)
	for _, n := range []int{0, len(slot), recordPage, 3 * recordPage} {
		data := make([]byte, n)
		copy(data, slot)
		if _, _, err := parseRecord(data, "k"); !errors.Is(err, ErrRecordDamaged) {
			t.Errorf("a file of %d bytes: %v", n, err)
		}
	}
}

// TestRecordOnlyUpdate: an Update that reads and writes only records
// never opens the database (nor creates it), and still keeps its files
// out of commits.
func TestRecordOnlyUpdate(t *testing.T) {
	s, _ := newStore(t)
	mustUpdate(t, s, func(tx *Tx) error {
		if v, err := tx.Record(testSet, "k"); v != nil || err != nil {
			return fmt.Errorf("record: %q, %v", v, err)
		}
		return tx.PutRecord(testSet, "k", []byte("v"))
	})
	if _, err := os.Lstat(s.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the database was created: %v", err)
	}
	gi, err := os.ReadFile(filepath.Join(s.Dir(), ".gitignore"))
	if err != nil || !strings.Contains(string(gi), "\nsessions/\n") {
		t.Errorf(".gitignore: %q, %v", gi, err)
	}
	if v, err := getRecord(t, s, "k"); string(v) != "v" || err != nil {
		t.Errorf("read %q, %v", v, err)
	}
}

// TestRecordTooLargeIsRefused: a value over MaxRecordValue fails the
// transaction with ErrRecordTooLarge and leaves the stored value, and
// the rest of the transaction, as they were; the largest value allowed
// makes a file the reader still reads.
func TestRecordTooLargeIsRefused(t *testing.T) {
	s, _ := newStore(t)
	putRecord(t, s, "k", []byte("kept"))
	err := s.Update(context.Background(), func(tx *Tx) error {
		if err := tx.PutRecord(testSet, "other", []byte("same transaction")); err != nil {
			return err
		}
		return tx.PutRecord(testSet, "k", make([]byte, MaxRecordValue+1))
	})
	if !errors.Is(err, ErrRecordTooLarge) {
		t.Fatalf("Update = %v, want ErrRecordTooLarge", err)
	}
	if v, err := getRecord(t, s, "k"); err != nil || string(v) != "kept" {
		t.Errorf("after the refused write: %q, %v", v, err)
	}
	if v, err := getRecord(t, s, "other"); err != nil || v != nil {
		t.Errorf("the failed transaction's other write: %q, %v", v, err)
	}
	largest := bytes.Repeat([]byte("v"), MaxRecordValue)
	putRecord(t, s, "k", largest)
	if v, err := getRecord(t, s, "k"); err != nil || !bytes.Equal(v, largest) {
		t.Errorf("the largest value: %d bytes read back, %v", len(v), err)
	}
}

// TestReadNewestSlot checks the read of the newer slot alone against the
// whole file's parse: the same value and place for every file the writer
// makes (growing, alternating slots), and no answer of its own (ok false)
// for a newer slot that is not whole, which the whole file's read
// resolves.
func TestReadNewestSlot(t *testing.T) {
	s, _ := newStore(t)
	for i, n := range []int{5, 3000, 9000, 100, 20000} {
		putRecord(t, s, "k", bytes.Repeat([]byte{byte('a' + i)}, n))
		data, err := os.ReadFile(recordPath(s, "k"))
		if err != nil {
			t.Fatal(err)
		}
		wantVal, wantAt, _ := parseRecord(data, "k")
		d, err := confined.OpenDir(s.Dir(), testSet)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := recordName("k")
		val, at, ok := readNewestSlot(d, name, "k")
		if !ok || !bytes.Equal(val, wantVal) || at != wantAt {
			t.Errorf("write %d (%d bytes): read %d bytes at %+v, ok %v; whole file: %d bytes at %+v", i, n, len(val), at, ok, len(wantVal), wantAt)
		}
		size := int64(len(data) / 2)
		data[int64(wantAt.slot)*size+recordHeader] ^= 0x40
		if err := os.WriteFile(recordPath(s, "k"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, _, ok := readNewestSlot(d, name, "k"); ok {
			t.Errorf("write %d: a damaged newer slot was read", i)
		}
		data[int64(wantAt.slot)*size+recordHeader] ^= 0x40
		_ = os.WriteFile(recordPath(s, "k"), data, 0o600)
		d.Close()
	}
	d, _ := confined.OpenDir(s.Dir(), testSet)
	defer d.Close()
	if val, _, ok := readNewestSlot(d, "missing.rec", "missing"); val != nil || !ok {
		t.Errorf("missing file: %q, ok %v; want nil, ok", val, ok)
	}
}

// TestSealSlotAgain: a pending record's slot sealed a second time (a
// lazy write that had to replace its file) is the slot as made afresh,
// its flag and write number the second seal's, and holds the value.
func TestSealSlotAgain(t *testing.T) {
	b, v := slotFor("k", []byte("value"))
	sealSlot(b, 1, 5, true)
	sealSlot(b, 1, 6, false)
	if want := encodeSlot("k", []byte("value"), 6, false); !bytes.Equal(b, want) || string(v) != "value" {
		t.Errorf("resealed %q, value %q; want %q", b, v, want)
	}
	if val, seq, err := parseSlot(b, "k"); string(val) != "value" || seq != 6 || err != nil {
		t.Errorf("parsed %q %d %v", val, seq, err)
	}
}

// TestPutRecordBuffer: a value appended to a record buffer of its key is
// stored as PutRecord stores it; bytes that are not one of the key are
// refused, and nothing is written.
func TestPutRecordBuffer(t *testing.T) {
	for _, tc := range []struct {
		name string
		buf  []byte
		ok   bool
	}{
		{"its key's", append(RecordBuffer("s1", 5), "value"...), true},
		{"no value", RecordBuffer("s1", 0), true},
		{"another key's", append(RecordBuffer("s2", 5), "value"...), false},
		{"too short", []byte("value"), false},
		{"nothing", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newStore(t)
			err := s.Update(context.Background(), func(tx *Tx) error { return tx.PutRecordBuffer(testSet, "s1", tc.buf) })
			if tc.ok != (err == nil) {
				t.Fatalf("PutRecordBuffer: %v, want ok %v", err, tc.ok)
			}
			got, rerr := getRecord(t, s, "s1")
			want := []byte(nil)
			if tc.ok {
				want = tc.buf[recordHeader+len("s1"):]
			}
			if rerr != nil || !bytes.Equal(got, want) || tc.ok && got == nil {
				t.Errorf("stored %q, %v; want %q", got, rerr, want)
			}
		})
	}
}
