package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func ledger(t *testing.T, n int) (string, Head) {
	t.Helper()
	p := filepath.Join(t.TempDir(), FileName)
	var h Head
	for i := 0; i < n; i++ {
		var err error
		h, err = Append(p, &Record{Files: []File{{Path: "f.go", Conversations: []Conversation{{Ranges: []Range{{StartLine: 1, EndLine: i + 1}}}}}},
			Metadata: Metadata{Atreides: &Meta{Intent: "i1", Change: Modify}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	return p, h
}

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

func TestVerify(t *testing.T) {
	p, h := ledger(t, 5)
	if n, prob := Verify(p, h); prob != nil || n != 5 {
		t.Fatalf("intact ledger: %d, %v", n, prob)
	}
	if h.Seq != 5 {
		t.Fatalf("head %+v", h)
	}
	orig := lines(t, p)
	tamper := map[string]func() [][]byte{
		"edit a range": func() [][]byte {
			ls := clone(orig)
			ls[2] = bytes.Replace(ls[2], []byte(`"end_line":3`), []byte(`"end_line":4`), 1)
			return ls
		},
		"edit the last": func() [][]byte {
			ls := clone(orig)
			ls[4] = bytes.Replace(ls[4], []byte(`"intent_id":"i1"`), []byte(`"intent_id":"i2"`), 1)
			return ls
		},
		"delete a line": func() [][]byte {
			ls := clone(orig)
			return append(ls[:1], ls[2:]...)
		},
		"reorder": func() [][]byte {
			ls := clone(orig)
			ls[1], ls[2] = ls[2], ls[1]
			return ls
		},
		"truncate the end": func() [][]byte { return clone(orig)[:4] },
		"whitespace edit": func() [][]byte {
			ls := clone(orig)
			ls[0] = bytes.Replace(ls[0], []byte(`,"id"`), []byte(`, "id"`), 1)
			return ls
		},
	}
	wantLine := map[string]int{"edit a range": 3, "edit the last": 5, "delete a line": 2, "reorder": 2, "truncate the end": 0, "whitespace edit": 1}
	for name, f := range tamper {
		write(t, p, f())
		_, prob := Verify(p, h)
		if prob == nil {
			t.Errorf("%s: not detected", name)
			continue
		}
		if prob.Line != wantLine[name] {
			t.Errorf("%s: reported line %d (%v), want %d", name, prob.Line, prob, wantLine[name])
		}
	}
}

func clone(ls [][]byte) [][]byte {
	out := make([][]byte, len(ls))
	for i, l := range ls {
		out[i] = bytes.Clone(l)
	}
	return out
}

func TestAcceptsTwoPartVersion(t *testing.T) {
	if !validVersion("1.0") || !validVersion("0.1.0") || validVersion("1") || validVersion("1.x") || validVersion("1..0") {
		t.Fatal("version pattern")
	}
	p, h := ledger(t, 1)
	b, _ := os.ReadFile(p)
	if !strings.Contains(string(b), `"version":"0.1.0"`) {
		t.Fatalf("writes %s", b)
	}
	_ = h
}

// Appends serialized by a lock (as the hook does under the store lock)
// never interleave or lose a line.
func TestConcurrentAppendsUnderLock(t *testing.T) {
	p := filepath.Join(t.TempDir(), FileName)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			if _, err := Append(p, &Record{Files: []File{}, Metadata: Metadata{Atreides: &Meta{Change: Create}}}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n, prob := Verify(p, Head{}); prob != nil || n != 40 {
		t.Fatalf("%d records, %v", n, prob)
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
