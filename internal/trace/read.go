package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Entry is one line of the ledger as read back.
type Entry struct {
	Line   int // 1-based line number in the file
	Raw    []byte
	Record Record
	Err    error // the line is not a record
	// Torn is set on a last line without a newline: a write that was cut
	// short, which the next append keeps aside.
	Torn bool
}

// Read reads every line of the ledger.
func Read(path string) ([]Entry, error) {
	data, err := readLedger(path)
	if err != nil {
		return nil, err
	}
	return Parse(data), nil
}

// Parse reads a ledger's lines: the file's content, or the team store's
// entries joined by newlines.
func Parse(data []byte) []Entry {
	var out []Entry
	split := bytes.Split(data, []byte{'\n'})
	for i, line := range split {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		// The last piece has no newline after it (an empty one is skipped).
		e := Entry{Line: i + 1, Raw: line, Torn: i == len(split)-1}
		e.Err = json.Unmarshal(line, &e.Record)
		out = append(out, e)
	}
	return out
}

// check verifies one line on its own: an Agent Trace record with
// atreides's metadata whose hash matches its bytes exactly (re-encoding
// it must give the same line, so a changed key, value, space or key order
// is an edit). It does not look at the chain.
func check(raw []byte) (*Record, error) {
	var r Record
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("not a JSON record: %v", err)
	}
	m := r.Metadata.Atreides
	switch {
	case m == nil:
		return nil, fmt.Errorf("no %q metadata: not written by atreides, or edited", MetaKey)
	case !validVersion(r.Version):
		return nil, fmt.Errorf("version %q is not X.Y.Z", r.Version)
	case r.ID == "" || r.Timestamp == "":
		return nil, errors.New("id or timestamp missing")
	}
	claimed := m.Hash
	line, err := seal(&r)
	if err != nil {
		return nil, fmt.Errorf("cannot re-encode: %v", err)
	}
	if m.Hash != claimed || !bytes.Equal(line, bytes.TrimRight(raw, "\r")) {
		return nil, errors.New("edited: its content no longer matches its hash")
	}
	return &r, nil
}

func validVersion(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.TrimLeft(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// lastLine returns the ledger's last line (without its newline and any
// blank lines after it), the offset it starts at, and whether the file
// ends with a newline. line is nil for an empty file.
func lastLine(f io.ReaderAt, size int64) (line []byte, start int64, complete bool, err error) {
	if size == 0 {
		return nil, 0, true, nil
	}
	for n := int64(16 << 10); ; n *= 4 {
		n = min(n, size)
		buf := make([]byte, n)
		if _, err := f.ReadAt(buf, size-n); err != nil && err != io.EOF {
			return nil, 0, false, err
		}
		complete = buf[len(buf)-1] == '\n'
		body := bytes.TrimRight(buf, "\n")
		if i := bytes.LastIndexByte(body, '\n'); i >= 0 {
			return body[i+1:], size - n + int64(i) + 1, complete, nil
		}
		if n == size {
			if len(body) == 0 {
				return nil, 0, complete, nil
			}
			return body, 0, complete, nil
		}
	}
}
