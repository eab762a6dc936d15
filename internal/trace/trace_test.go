package trace

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fixture is a ledger in a temporary project with a signing key and
// checkpoint in a temporary configuration directory.
type fixture struct {
	t    *testing.T
	path string
	a    *Anchor
	w    *Writer
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	a := NewAnchor(t.TempDir(), root)
	p := filepath.Join(root, ".atreides", FileName)
	return &fixture{t: t, path: p, a: a, w: &Writer{Path: p, Anchor: a}}
}

func record(i int) *Record {
	return &Record{Files: []File{{Path: "f.go", Conversations: []Conversation{{Ranges: []Range{{StartLine: 1, EndLine: i + 1}}}}}},
		Metadata: Metadata{Atreides: &Meta{Intent: "i1", Change: Modify}}}
}

// add appends n records and returns the last head.
func (f *fixture) add(n int) Head {
	f.t.Helper()
	var h Head
	for i := 0; i < n; i++ {
		res, err := f.w.Append(record(i))
		if err != nil {
			f.t.Fatal(err)
		}
		h = res.Head
	}
	return h
}

func (f *fixture) verify(state *Head) Report { return Verify(f.path, state, f.a) }

func lines(t *testing.T, p string) [][]byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimRight(b, "\n"), []byte{'\n'})
}

func write(t *testing.T, p string, ls [][]byte) {
	if err := os.WriteFile(p, append(bytes.Join(ls, []byte{'\n'}), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func clone(ls [][]byte) [][]byte {
	out := make([][]byte, len(ls))
	for i, l := range ls {
		out[i] = bytes.Clone(l)
	}
	return out
}

// rehashed is what an attacker who can write the repository does: the
// ledger's records with edit applied to record #k, each record re-chained
// and rehashed (no anchor: the attacker has no key), then extra more
// records appended. The result is a valid chain.
func rehashed(t *testing.T, orig [][]byte, k int, edit func(*Record), extra int) [][]byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), FileName)
	w := &Writer{Path: p}
	for i, l := range orig {
		r, err := check(l)
		if err != nil {
			t.Fatal(err)
		}
		if i+1 == k {
			edit(r)
		}
		if _, err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < extra; i++ {
		if _, err := w.Append(record(100 + i)); err != nil {
			t.Fatal(err)
		}
	}
	return lines(t, p)
}

func TestVerifyDetectsTampering(t *testing.T) {
	f := newFixture(t)
	h := f.add(5)
	if rep := f.verify(&h); !rep.OK || rep.Records != 5 || rep.Head.Source != SourceCheckpoint || rep.Head.Seq != 5 || len(rep.Unanchored) != 0 {
		t.Fatalf("intact ledger: %+v", rep)
	}
	orig := lines(t, f.path)
	intent2 := func(r *Record) { r.Metadata.Atreides.Intent = "i2" }
	cases := []struct {
		name     string
		ledger   func() [][]byte
		wantLine int
		noState  bool // the state file is gone too (it lives in the repository)
	}{
		{"edit a range", func() [][]byte {
			ls := clone(orig)
			ls[2] = bytes.Replace(ls[2], []byte(`"end_line":3`), []byte(`"end_line":4`), 1)
			return ls
		}, 3, false},
		{"edit the last", func() [][]byte {
			ls := clone(orig)
			ls[4] = bytes.Replace(ls[4], []byte(`"intent_id":"i1"`), []byte(`"intent_id":"i2"`), 1)
			return ls
		}, 5, false},
		{"delete a line", func() [][]byte { ls := clone(orig); return append(ls[:1], ls[2:]...) }, 2, false},
		{"reorder", func() [][]byte { ls := clone(orig); ls[1], ls[2] = ls[2], ls[1]; return ls }, 2, false},
		{"truncate the end", func() [][]byte { return clone(orig)[:4] }, 0, true},
		{"whitespace edit", func() [][]byte {
			ls := clone(orig)
			ls[0] = bytes.Replace(ls[0], []byte(`,"id"`), []byte(`, "id"`), 1)
			return ls
		}, 1, false},
		// The review's forgery: rewrite a record, rehash every later one,
		// append one more so the ledger is longer than the head.
		{"rewrite, rehash, append one", func() [][]byte { return rehashed(t, orig, 2, intent2, 1) }, 5, false},
		{"rewrite, rehash, append one, state gone", func() [][]byte { return rehashed(t, orig, 2, intent2, 1) }, 5, true},
		{"rewrite the last, rehash", func() [][]byte { return rehashed(t, orig, 5, intent2, 0) }, 5, true},
		{"replace everything", func() [][]byte { return rehashed(t, orig, 1, intent2, 10) }, 5, true},
	}
	for _, c := range cases {
		write(t, f.path, c.ledger())
		state := &h
		if c.noState {
			state = nil
		}
		rep := f.verify(state)
		if rep.OK || rep.Problem == nil {
			t.Errorf("%s: not detected: %+v", c.name, rep)
			continue
		}
		if rep.Problem.Line != c.wantLine {
			t.Errorf("%s: reported line %d (%v), want %d", c.name, rep.Problem.Line, rep.Problem, c.wantLine)
		}
	}
}

// Before: the state head was checked only when the ledger's length equalled
// it, so a rewrite plus one more record passed. The state head alone (no
// checkpoint) now catches it too.
func TestStateHeadCheckedWhenLedgerIsLonger(t *testing.T) {
	f := newFixture(t)
	h := f.add(3)
	write(t, f.path, rehashed(t, lines(t, f.path), 3, func(r *Record) { r.Metadata.Atreides.Change = Create }, 1))
	rep := Verify(f.path, &h, nil)
	if rep.OK || rep.Problem.Seq != 3 || !strings.Contains(rep.Problem.Msg, "state file") {
		t.Fatalf("%+v", rep)
	}
}

func TestRollbackToOlderLedger(t *testing.T) {
	f := newFixture(t)
	f.add(3)
	old, _ := os.ReadFile(f.path)
	f.add(2)
	// The attacker restores the older ledger (and state) and continues
	// from there with records of their own.
	os.WriteFile(f.path, old, 0o644)
	rep := f.verify(nil)
	if rep.OK || !strings.Contains(rep.Problem.Msg, "ends at record #3") || !strings.Contains(rep.Problem.Msg, "signed checkpoint says #5") {
		t.Fatalf("rollback: %+v", rep)
	}
	write(t, f.path, rehashed(t, lines(t, f.path), 1, func(*Record) {}, 2))
	if rep := f.verify(nil); rep.OK || rep.Problem.Seq != 5 {
		t.Fatalf("rollback then append to the old length: %+v", rep)
	}
	// A later append by atreides does not sign over it.
	res, err := f.w.Append(record(9))
	if err != nil || !hasNote(res.Notes, "left unchanged") {
		t.Fatalf("append after rollback: %v %v", res.Notes, err)
	}
	if rep := f.verify(nil); rep.OK {
		t.Fatalf("the append laundered the rollback: %+v", rep)
	}
}

func hasNote(notes []string, s string) bool {
	for _, n := range notes {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

func TestHeadUnknown(t *testing.T) {
	f := newFixture(t)
	if rep := Verify(f.path, nil, nil); !rep.OK || rep.Records != 0 {
		t.Fatalf("no ledger, no head: %+v", rep)
	}
	(&Writer{Path: f.path}).Append(record(0))
	rep := Verify(f.path, nil, nil)
	if rep.OK || rep.Head.Source != SourceNone || !strings.Contains(rep.Problem.Msg, "head unknown") || rep.Records != 1 {
		t.Fatalf("records and no head: %+v", rep)
	}
	if rep := Verify(f.path, nil, f.a); rep.OK || rep.Checkpoint.Status != CheckpointMissing {
		t.Fatalf("no checkpoint: %+v", rep)
	}
}

func TestCheckpointCannotBeTrusted(t *testing.T) {
	cases := map[string]func(f *fixture){
		"key deleted": func(f *fixture) { os.Remove(f.a.KeyPath()) },
		"key replaced": func(f *fixture) {
			os.Remove(f.a.KeyPath())
			(&Anchor{Dir: f.a.Dir}).loadKey(true)
		},
		"checkpoints edited": func(f *fixture) {
			for _, p := range f.a.CheckpointPaths() {
				b, _ := os.ReadFile(p)
				b = bytes.Replace(b, []byte(`"seq":4`), []byte(`"seq":5`), 1)
				os.WriteFile(p, bytes.Replace(b, []byte(`"seq":3`), []byte(`"seq":5`), 1), 0o600)
			}
		},
		"checkpoints of another project": func(f *fixture) {
			other := &Anchor{Dir: f.a.Dir, Project: "/elsewhere"}
			for i, p := range f.a.CheckpointPaths() {
				other.sign(&Checkpoint{Seq: 4}, i)
				b, _ := os.ReadFile(other.CheckpointPaths()[i])
				os.WriteFile(p, b, 0o600)
			}
		},
	}
	for name, damage := range cases {
		f := newFixture(t)
		f.add(4)
		damage(f)
		rep := Verify(f.path, nil, NewAnchor(f.a.Dir, filepath.Dir(filepath.Dir(f.path))))
		if rep.OK || rep.Checkpoint.Status != CheckpointUntrusted {
			t.Errorf("%s: %+v", name, rep)
		}
		// An append neither signs over it nor loses the record.
		w := &Writer{Path: f.path, Anchor: NewAnchor(f.a.Dir, filepath.Dir(filepath.Dir(f.path)))}
		if res, err := w.Append(record(5)); err != nil || res.Head.Seq != 5 || !hasNote(res.Notes, "left unchanged") {
			t.Errorf("%s: append: %+v %v", name, res, err)
		}
		if rep := Verify(f.path, nil, w.Anchor); rep.OK {
			t.Errorf("%s: append re-anchored an untrusted checkpoint", name)
		}
	}
}

// Records appended behind atreides's back (another machine, a hand edit)
// are reported as unanchored, at once and after later appends.
func TestForeignAppendIsUnanchored(t *testing.T) {
	f := newFixture(t)
	f.add(2)
	(&Writer{Path: f.path}).Append(record(7))
	rep := f.verify(nil)
	if !rep.OK || len(rep.Unanchored) != 1 || rep.Unanchored[0] != (Span{3, 3}) {
		t.Fatalf("foreign tail: %+v", rep)
	}
	res, _ := f.w.Append(record(8))
	if !hasNote(res.Notes, "#3–#3") {
		t.Errorf("notes: %v", res.Notes)
	}
	rep = f.verify(nil)
	if !rep.OK || rep.Head.Seq != 4 || len(rep.Unanchored) != 1 || rep.Unanchored[0] != (Span{3, 3}) {
		t.Fatalf("after the next append: %+v", rep)
	}
}

// A ledger written before checkpoints existed is adopted, and says so.
func TestFirstCheckpointAdoptsLedger(t *testing.T) {
	f := newFixture(t)
	(&Writer{Path: f.path}).Append(record(0))
	(&Writer{Path: f.path}).Append(record(1))
	res, err := f.w.Append(record(2))
	if err != nil || !hasNote(res.Notes, "first trace checkpoint") {
		t.Fatal(res.Notes, err)
	}
	rep := f.verify(nil)
	if !rep.OK || rep.Unanchored[0] != (Span{1, 2}) {
		t.Fatalf("%+v", rep)
	}
	fi, err := os.Stat(f.a.KeyPath())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file %v %v", fi, err)
	}
	di, _ := os.Stat(filepath.Dir(f.a.CheckpointPaths()[0]))
	ci, _ := os.Stat(f.a.CheckpointPaths()[0])
	if ci.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("checkpoint %v, dir %v", ci.Mode(), di.Mode())
	}
}

func TestAcceptsTwoPartVersion(t *testing.T) {
	if !validVersion("1.0") || !validVersion("0.1.0") || validVersion("1") || validVersion("1.x") || validVersion("1..0") {
		t.Fatal("version pattern")
	}
	f := newFixture(t)
	f.add(1)
	b, _ := os.ReadFile(f.path)
	if !strings.Contains(string(b), `"version":"0.1.0"`) {
		t.Fatalf("writes %s", b)
	}
}

// A record written by an earlier version, with the command text, still
// verifies: the hash covers what was written.
func TestOldRecordWithCommandVerifies(t *testing.T) {
	f := newFixture(t)
	r := record(0)
	r.Metadata.Atreides.Command = "sed -i s/a/b/ f.go"
	f.w.Append(r)
	f.add(1)
	if rep := f.verify(nil); !rep.OK || rep.Records != 2 {
		t.Fatalf("%+v", rep)
	}
	if !strings.Contains(string(lines(t, f.path)[0]), `"command":"sed -i`) {
		t.Fatal("old field not kept")
	}
}

// Appends serialized by a lock (as the hook does under the store lock)
// never interleave or lose a line.
func TestConcurrentAppendsUnderLock(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			w := &Writer{Path: f.path, Anchor: NewAnchor(f.a.Dir, filepath.Dir(filepath.Dir(f.path)))}
			if _, err := w.Append(&Record{Metadata: Metadata{Atreides: &Meta{Change: Create}}}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if rep := f.verify(nil); !rep.OK || rep.Records != 40 || rep.Head.Seq != 40 {
		t.Fatalf("%+v", rep)
	}
}

func TestChangedRange(t *testing.T) {
	before := []byte("a\nb\nc\nd\n")
	r, del := ChangedRange(before, []byte("a\nB\nC\nd\n"), true)
	if r == nil || r.StartLine != 2 || r.EndLine != 3 || del != 0 || !strings.HasPrefix(r.ContentHash, "sha256:") {
		t.Fatalf("modify: %+v %d", r, del)
	}
	if r.ContentHash != Sum([]byte("B\nC\n")) {
		t.Error("hash must cover the range's LF-terminated lines")
	}
	r, del = ChangedRange(before, []byte("a\nd\n"), true)
	if r != nil || del != 2 {
		t.Fatalf("pure deletion: %+v %d", r, del)
	}
	r, _ = ChangedRange(nil, []byte("x\r\ny\r\n"), false)
	if r.StartLine != 1 || r.EndLine != 2 || r.ContentHash != Sum([]byte("x\ny\n")) {
		t.Fatalf("whole file, CRLF normalized: %+v", r)
	}
}

// A signature cut short (a crash inside the write) leaves the other
// checkpoint file, one record older, to fall back on: the newest record
// is then unanchored, not the ledger broken.
func TestTornCheckpointFallsBack(t *testing.T) {
	f := newFixture(t)
	f.add(4)
	c, err := f.a.Load()
	if err != nil || c.Seq != 4 {
		t.Fatal(c, err)
	}
	os.WriteFile(f.a.CheckpointPaths()[c.slot], []byte(`{"v":1,"proj`), 0o600)
	rep := f.verify(nil)
	if !rep.OK || rep.Head.Seq != 3 || len(rep.Unanchored) != 1 || rep.Unanchored[0] != (Span{4, 4}) {
		t.Fatalf("%+v", rep)
	}
	f.add(1)
	if rep := f.verify(nil); !rep.OK || rep.Head.Seq != 5 {
		t.Fatalf("after the next append: %+v", rep)
	}
}

// TestVerifyTeam: a team store's ledger (records sealed against the
// state's head, one per entry) verifies with the same chain checking as
// the file, against the head of the team store's project state, and
// names no checkpoint.
func TestVerifyTeam(t *testing.T) {
	var lines [][]byte
	var head Head
	for i := range 3 {
		line, h, err := Seal(&Record{Metadata: Metadata{Atreides: &Meta{Session: fmt.Sprintf("s%d", i), Change: Create}}}, head)
		if err != nil {
			t.Fatal(err)
		}
		lines, head = append(lines, line), h
	}
	join := func(ls [][]byte) []byte { return append(bytes.Join(ls, []byte{'\n'}), '\n') }
	edited := bytes.Replace(lines[1], []byte(`"s1"`), []byte(`"sX"`), 1)
	for _, c := range []struct {
		name    string
		data    []byte
		head    *Head
		ok      bool
		records int
	}{
		{"intact", join(lines), &head, true, 3},
		{"empty", nil, nil, true, 0},
		{"edited", join([][]byte{lines[0], edited, lines[2]}), &head, false, 1},
		{"deleted in the middle", join([][]byte{lines[0], lines[2]}), &head, false, 1},
		{"cut short", join(lines[:2]), &head, false, 2},
		{"head unknown", join(lines), nil, false, 3},
	} {
		rep := VerifyTeam(c.data, c.head)
		if rep.OK != c.ok || rep.Records != c.records || rep.Checkpoint.Status != CheckpointTeam {
			t.Errorf("%s: %+v", c.name, rep)
		}
		if c.ok && c.records > 0 && (rep.Head.Source != SourceStore || rep.Head.Seq != 3) {
			t.Errorf("%s: head %+v", c.name, rep.Head)
		}
	}
}
