package trace

import (
	"os"
	"path/filepath"
	"testing"
)

// signedLedger writes a valid ledger of n records with a checkpoint and
// returns its bytes and anchor.
func signedLedger(tb testing.TB, n int) ([]byte, *Anchor) {
	tb.Helper()
	root := tb.TempDir()
	a := NewAnchor(tb.TempDir(), root)
	p := filepath.Join(root, FileName)
	w := &Writer{Path: p, Anchor: a}
	for i := 0; i < n; i++ {
		if _, err := w.Append(record(i)); err != nil {
			tb.Fatal(err)
		}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	return b, a
}

// FuzzVerify reads arbitrary bytes as a ledger, and a valid signed ledger
// with one byte replaced. Properties: Verify never panics, and a changed
// byte anywhere in a valid ledger is never reported OK.
func FuzzVerify(f *testing.F) {
	valid, a := signedLedger(f, 3)
	f.Add([]byte{}, uint(0), byte('x'))
	f.Add(valid, uint(10), byte('1'))
	f.Add(valid[:len(valid)-1], uint(len(valid)-1), byte('\n'))
	f.Add([]byte("{}\n{\"metadata\":{\"dev.atreides\":{\"seq\":1}}}"), uint(3), byte(' '))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, pos uint, b byte) {
		tmp, err := os.CreateTemp(dir, "ledger-*")
		if err != nil {
			t.Fatal(err)
		}
		p := tmp.Name()
		tmp.Close()
		defer os.Remove(p)
		os.WriteFile(p, data, 0o644)
		Verify(p, &Head{Seq: uint64(pos % 7), Hash: string(data[:min(len(data), 8)])}, a)
		Verify(p, nil, nil)

		i := int(pos % uint(len(valid)))
		if valid[i] == b {
			return
		}
		if rep := verifyChanged(t, p, valid, i, b, a); rep.OK {
			t.Fatalf("byte %d changed from %q to %q: reported OK: %+v", i, valid[i], b, rep)
		}
	})
}

// The fuzz property, exhaustively over positions: every byte of a signed
// ledger, changed to a neighbouring value, a newline or a space.
func TestEveryByteChangeIsDetected(t *testing.T) {
	valid, a := signedLedger(t, 3)
	p := filepath.Join(t.TempDir(), FileName)
	for i := range valid {
		for _, b := range []byte{valid[i] ^ 1, '\n', ' '} {
			if b == valid[i] {
				continue
			}
			if rep := verifyChanged(t, p, valid, i, b, a); rep.OK {
				t.Fatalf("byte %d changed from %q to %q: reported OK: %+v", i, valid[i], b, rep)
			}
		}
	}
}

func verifyChanged(t *testing.T, p string, valid []byte, i int, b byte, a *Anchor) Report {
	changed := append([]byte(nil), valid...)
	changed[i] = b
	if err := os.WriteFile(p, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	return Verify(p, nil, a)
}
