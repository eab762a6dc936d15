package otlpexport

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/confined"
)

// cursorName is the cursor's file in the state directory.
const cursorName = "spans.cursor"

// maxScopes bounds the open scopes a cursor keeps: sessions that never
// ended (a host killed) would otherwise stay forever.
const maxScopes = 10000

// Cursor is where the exporter is in the spool, and what it carries from
// batch to batch.
type Cursor struct {
	// Head names the file being read: a hash of its first line; empty
	// before any span was shipped.
	Head string `json:"head"`
	Off  int64  `json:"off"` // the first byte not shipped
	// Scopes are the open root and delegation spans, by span id.
	Scopes map[string]*Scope `json:"scopes,omitempty"`
	// Metrics are the cumulative totals since Metrics.Start.
	Metrics Metrics `json:"metrics"`
}

// Scope is an open root or delegation span.
type Scope struct {
	Trace   string `json:"trace"`
	Parent  string `json:"parent,omitempty"`
	Name    string `json:"name"`
	Start   int64  `json:"start"`
	Host    string `json:"host"`
	Session string `json:"session"`
	AgentID string `json:"agent_id,omitempty"`
	Agent   string `json:"agent_type,omitempty"`
}

// loadCursor reads the cursor; a missing one starts at the spool's
// beginning, a damaged one too (said by the caller through the error).
func loadCursor(base, dir string) (*Cursor, error) {
	c := &Cursor{}
	b, err := confined.ReadFile(base, dir+"/"+cursorName, 16<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read cursor: %w", err)
	}
	if err := json.Unmarshal(b, c); err != nil {
		return &Cursor{}, fmt.Errorf("cursor %s is damaged, starting over: %w", cursorName, err)
	}
	return c, nil
}

// save replaces the cursor durably: it is what says a batch was shipped.
func (c *Cursor) save(base, dir string) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	d, err := confined.MkdirAll(base, dir, 0o755)
	if err != nil {
		return fmt.Errorf("save cursor: %w", err)
	}
	defer d.Close()
	if err := d.ReplaceFile(cursorName, b, true); err != nil {
		return fmt.Errorf("save cursor: %w", err)
	}
	return nil
}

// maxBatch bounds one batch, in lines and bytes.
const (
	maxBatchLines = 1000
	maxBatchBytes = 4 << 20
	maxLine       = 1 << 20 // a longer line is not a span: skipped
)

// batch is what one read of the spool found.
type batch struct {
	lines   [][]byte
	damaged int    // lines that were not JSON objects, skipped
	lost    bool   // the cursor's file was gone: rotation dropped spans
	head    string // the cursor after the batch
	off     int64
}

// headOf is the name of a file: the hash of its first line, "" when it has
// no complete line yet.
func headOf(f *os.File) (string, error) {
	b := make([]byte, 0, 4096)
	buf := make([]byte, 4096)
	var off int64
	for len(b) < maxLine {
		n, err := f.ReadAt(buf, off)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			sum := sha256.Sum256(append(b, buf[:i+1]...))
			return hex.EncodeToString(sum[:16]), nil
		}
		b, off = append(b, buf[:n]...), off+int64(n)
		if err == io.EOF {
			return "", nil
		}
		if err != nil {
			return "", err
		}
	}
	return "", nil
}

// read takes the next batch after the cursor from the spool's files.
func read(spool *audit.Trail, c *Cursor) (*batch, error) {
	names, err := spool.Files()
	if err != nil {
		return nil, fmt.Errorf("list spool: %w", err)
	}
	files := make([]*os.File, 0, len(names))
	heads := make([]string, 0, len(names))
	defer func() {
		for _, f := range files {
			_ = f.Close()
		}
	}()
	for _, n := range names {
		f, err := spool.OpenFile(n)
		if errors.Is(err, fs.ErrNotExist) {
			continue // rotated or removed since the listing
		}
		if err != nil {
			return nil, fmt.Errorf("open spool: %w", err)
		}
		h, err := headOf(f)
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("read spool: %w", err)
		}
		files, heads = append(files, f), append(heads, h)
	}
	b := &batch{head: c.Head, off: c.Off}
	i := 0
	if c.Head != "" {
		i = -1
		for j, h := range heads {
			if h == c.Head {
				i = j
			}
		}
		if i < 0 {
			// Removed by retention: every file left is newer.
			i, b.lost, b.head, b.off = 0, true, "", 0
		}
	}
	size := 0
	for ; i < len(files); i++ {
		if heads[i] == "" {
			break // no complete line yet, in this file or after it
		}
		if heads[i] != b.head {
			b.head, b.off = heads[i], 0
		}
		full, err := b.take(files[i], &size)
		if err != nil || full {
			return b, err
		}
	}
	return b, nil
}

// take reads complete lines of f from b.off into the batch; full reports
// that the batch is full.
func (b *batch) take(f *os.File, size *int) (full bool, err error) {
	r := io.NewSectionReader(f, b.off, 1<<62)
	buf := make([]byte, 256<<10)
	var pending []byte
	skipping := false // inside a line longer than maxLine
	for {
		n, rerr := r.Read(buf)
		pending = append(pending, buf[:n]...)
		for {
			i := bytes.IndexByte(pending, '\n')
			if i < 0 {
				break
			}
			line := pending[:i]
			pending = pending[i+1:]
			b.off += int64(i + 1)
			if skipping {
				skipping = false
				continue
			}
			if !json.Valid(line) || len(line) == 0 || line[0] != '{' {
				b.damaged++
			} else {
				b.lines = append(b.lines, bytes.Clone(line))
				*size += len(line)
			}
			if len(b.lines) >= maxBatchLines || *size >= maxBatchBytes {
				return true, nil
			}
		}
		if len(pending) > maxLine {
			// Not a span: skip to its end.
			if !skipping {
				b.damaged++
			}
			b.off += int64(len(pending))
			pending, skipping = nil, true
		}
		if rerr == io.EOF {
			return false, nil
		}
		if rerr != nil {
			return false, fmt.Errorf("read spool: %w", rerr)
		}
	}
}
