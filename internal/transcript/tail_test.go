package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// naiveLines is what ScanTail must pass: the non-blank lines of data that
// begin inside its last limit bytes, after a line break or at the file's
// start, last first.
func naiveLines(data []byte, limit int64) [][]byte {
	stop := max(int64(len(data))-limit, 0)
	var out [][]byte
	p := 0
	for p <= len(data) {
		i := bytes.IndexByte(data[p:], '\n')
		end := len(data)
		if i >= 0 {
			end = p + i
		}
		if (int64(p) > stop || p == 0 && stop == 0) && len(bytes.TrimSpace(data[p:end])) > 0 {
			out = append(out, data[p:end])
		}
		if i < 0 {
			break
		}
		p = end + 1
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func FuzzScanTail(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "claude-2.1.197.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed, int64(4000), int64(7))
	f.Add([]byte("a\nb\n\nc"), int64(3), int64(1))
	f.Add([]byte("\n\nlong line here\nx"), int64(100), int64(2))
	f.Fuzz(func(t *testing.T, data []byte, limit, step int64) {
		if limit <= 0 || step <= 0 || step > 1<<20 {
			return
		}
		var got [][]byte
		n, err := ScanTail(bytes.NewReader(data), int64(len(data)), limit, step, func(l []byte) bool {
			got = append(got, bytes.Clone(l))
			return false
		})
		if err != nil {
			t.Fatal(err)
		}
		if n > limit || n > int64(len(data)) {
			t.Errorf("read %d bytes, limit %d, size %d", n, limit, len(data))
		}
		want := naiveLines(data, limit)
		if len(got) != len(want) {
			t.Fatalf("got %d lines %q, want %d %q", len(got), got, len(want), want)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("line %d: %q, want %q", i, got[i], want[i])
			}
		}
	})
}
