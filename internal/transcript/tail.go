package transcript

import (
	"bytes"
	"io"
	"os"
)

// chunk is how much ScanFile reads at a time, from the end backwards.
const chunk = 64 << 10

// ScanFile calls f on the lines of the last limit bytes of the file at
// path, the last line first, until f returns true (see [ScanTail]).
func ScanFile(path string, limit int64, f func(line []byte) bool) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return err
	}
	_, err = ScanTail(file, st.Size(), limit, chunk, f)
	return err
}

// ScanTail calls f on the lines of the last limit bytes of r (size bytes
// long), the last line first, until f returns true, reading step bytes at
// a time. The last line may be
// one still being written; a line that begins before the limit is not
// passed (it is not whole). It returns how many bytes it read.
func ScanTail(r io.ReaderAt, size, limit, step int64, f func(line []byte) bool) (int64, error) {
	stop := max(size-limit, 0)
	end := size
	var carry []byte // the start of the line that the bytes after end began
	buf := make([]byte, min(step, size-stop))
	for end > stop {
		off := max(end-step, stop)
		b := buf[:end-off]
		if _, err := r.ReadAt(b, off); err != nil && err != io.EOF {
			return size - off, err
		}
		data := append(b, carry...)
		first := bytes.IndexByte(data, '\n')
		switch {
		case first < 0 && off == 0:
			eachLastFirst(data, f)
			return size, nil
		case first < 0:
			// Still inside one line: read on, unless it began before
			// the limit (then it is not whole).
			carry = append(carry[:0:0], data...)
			end = off
			continue
		}
		if eachLastFirst(data[first+1:], f) {
			return size - off, nil
		}
		if off == 0 {
			// The file's first line is whole.
			eachLastFirst(data[:first], f)
			return size, nil
		}
		carry = append(carry[:0:0], data[:first]...)
		end = off
	}
	return size - stop, nil
}

// eachLastFirst calls f on the lines of b, last first, until it returns
// true; empty lines are skipped.
func eachLastFirst(b []byte, f func([]byte) bool) bool {
	for len(b) > 0 {
		i := bytes.LastIndexByte(b, '\n')
		line := b[i+1:]
		b = b[:max(i, 0)]
		if len(bytes.TrimSpace(line)) > 0 && f(line) {
			return true
		}
	}
	return false
}
