// Package trace keeps the trace ledger, .atreides/trace.jsonl: one Agent
// Trace record (spec 0.1.0) per file change, hash-chained so that an edited,
// deleted or reordered line is detected.
//
// Everything atreides adds lives under metadata["dev.atreides"], as the
// spec's closed objects require: the sequence number, the hash of the
// previous record, this record's own hash, and the intent, session, agent
// and tool call that made the change. Appends must be serialized by the
// caller (the hook does it under the state store's lock); each record is
// written with one write(2) on an O_APPEND descriptor, so readers never see
// half a line from a live writer.
package trace

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// FileName is the ledger inside the .atreides directory.
const FileName = "trace.jsonl"

// SpecVersion is the Agent Trace version written. Reading also accepts the
// two-part form ("1.0") the reference implementation writes.
const SpecVersion = "0.1.0"

// MetaKey is atreides's reverse-domain metadata key.
const MetaKey = "dev.atreides"

// Record is one Agent Trace record.
type Record struct {
	Version   string   `json:"version"`
	ID        string   `json:"id"`
	Timestamp string   `json:"timestamp"`
	VCS       *VCS     `json:"vcs,omitempty"`
	Tool      *Tool    `json:"tool,omitempty"`
	Files     []File   `json:"files"`
	Metadata  Metadata `json:"metadata"`
}

// VCS names the revision the line numbers refer to the parent of.
type VCS struct {
	Type     string `json:"type"`
	Revision string `json:"revision"`
}

// Tool is the program that wrote the record.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// File is one changed file.
type File struct {
	Path          string         `json:"path"`
	Conversations []Conversation `json:"conversations"`
}

// Conversation groups ranges by contributor.
type Conversation struct {
	URL         string       `json:"url,omitempty"`
	Contributor *Contributor `json:"contributor,omitempty"`
	Ranges      []Range      `json:"ranges"`
	Related     []Related    `json:"related,omitempty"`
}

// Contributor is who wrote the lines.
type Contributor struct {
	Type    string `json:"type"`
	ModelID string `json:"model_id,omitempty"`
}

// Range is a span of lines (1-based, inclusive) in the file after the change.
type Range struct {
	StartLine   int    `json:"start_line"`
	EndLine     int    `json:"end_line"`
	ContentHash string `json:"content_hash,omitempty"`
}

// Related links a conversation to a session or prompt.
type Related struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// Metadata holds vendor data; only atreides's key is modelled.
type Metadata struct {
	Atreides *Meta `json:"dev.atreides,omitempty"`
}

// Meta is atreides's metadata on a record.
type Meta struct {
	Seq  uint64 `json:"seq"`
	Prev string `json:"prev"` // hash of the previous record; "" for the first
	Hash string `json:"hash"` // sha256 of this record with hash set to ""

	Intent    string `json:"intent_id,omitempty"`
	Session   string `json:"session_id,omitempty"`
	Agent     string `json:"agent_id,omitempty"`
	AgentType string `json:"agent_type,omitempty"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Host      string `json:"host,omitempty"`
	HostTool  string `json:"tool,omitempty"`    // the host's tool name: Write, Edit, Bash
	Command   string `json:"command,omitempty"` // shell changes: the command, sanitized
	Change    string `json:"change"`            // create | modify | delete
	Before    string `json:"before,omitempty"`  // sha256:<hex> of the whole file before
	After     string `json:"after,omitempty"`   // sha256:<hex> of the whole file after
	// Deleted counts lines removed without replacement at the range start.
	Deleted int `json:"deleted_lines,omitempty"`
}

// Changes.
const (
	Create = "create"
	Modify = "modify"
	Delete = "delete"
)

// Sum returns "sha256:<hex>" of b.
func Sum(b []byte) string {
	h := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(h[:])
}

// NewID returns a random (version 4) UUID.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// seal sets the record's hash and returns its line (without newline).
func seal(r *Record) ([]byte, error) {
	m := r.Metadata.Atreides
	m.Hash = ""
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	m.Hash = Sum(b)
	return json.Marshal(r)
}

// Head is the end of the chain: the last record's sequence number and hash.
type Head struct {
	Seq  uint64
	Hash string
}

// Append adds a record to the ledger at path, chained to the last record
// in the file, and returns the new head. The caller serializes appends.
func Append(path string, r *Record) (Head, error) {
	if r.Metadata.Atreides == nil {
		r.Metadata.Atreides = &Meta{}
	}
	if r.Version == "" {
		r.Version = SpecVersion
	}
	if r.ID == "" {
		r.ID = NewID()
	}
	if r.Timestamp == "" {
		r.Timestamp = time.Now().UTC().Format(time.RFC3339Nano)
	}
	last, err := lastLine(path)
	if err != nil {
		return Head{}, err
	}
	m := r.Metadata.Atreides
	m.Seq, m.Prev = 1, ""
	if last != nil {
		var prev Record
		if json.Unmarshal(last, &prev) == nil && prev.Metadata.Atreides != nil && prev.Metadata.Atreides.Hash != "" {
			m.Seq, m.Prev = prev.Metadata.Atreides.Seq+1, prev.Metadata.Atreides.Hash
		} else {
			// An unreadable last line: chain to its bytes; verify reports it.
			m.Prev = Sum(last)
			m.Seq = uint64(countLines(path)) + 1
		}
	}
	line, err := seal(r)
	if err != nil {
		return Head{}, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Head{}, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return Head{}, err
	}
	_, werr := f.Write(append(line, '\n'))
	cerr := f.Close()
	if werr != nil {
		return Head{}, werr
	}
	if cerr != nil {
		return Head{}, cerr
	}
	return Head{Seq: m.Seq, Hash: m.Hash}, nil
}

// lastLine returns the last non-empty line of the file, nil when the file
// is missing or empty.
func lastLine(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	for n := int64(16 << 10); ; n *= 4 {
		if n > size {
			n = size
		}
		buf := make([]byte, n)
		if _, err := f.ReadAt(buf, size-n); err != nil && err != io.EOF {
			return nil, err
		}
		buf = bytes.TrimRight(buf, "\n")
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			return buf[i+1:], nil
		}
		if n == size {
			if len(buf) == 0 {
				return nil, nil
			}
			return buf, nil
		}
	}
}

func countLines(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte{'\n'})
}

// Entry is one line of the ledger as read back.
type Entry struct {
	Line   int // 1-based line number in the file
	Raw    []byte
	Record Record
	Err    error // the line is not a record
}

// Read reads every line of the ledger.
func Read(path string) ([]Entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for i, line := range bytes.Split(data, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		e := Entry{Line: i + 1, Raw: line}
		e.Err = json.Unmarshal(line, &e.Record)
		out = append(out, e)
	}
	return out, nil
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

// Problem is the first broken record found by [Verify].
type Problem struct {
	Line int    // line in the file, 0 for the file as a whole
	Seq  uint64 // the sequence number expected there
	Msg  string
}

func (p *Problem) Error() string {
	if p.Line == 0 {
		return p.Msg
	}
	return fmt.Sprintf("line %d (record #%d): %s", p.Line, p.Seq, p.Msg)
}

// Verify checks the whole chain and returns the number of good records and
// the first problem, if any. head is the last head the store recorded (zero
// if unknown): a ledger shorter than it was truncated.
func Verify(path string, head Head) (int, *Problem) {
	entries, err := Read(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, &Problem{Msg: err.Error()}
	}
	prev, seq := "", uint64(0)
	for i, e := range entries {
		want := seq + 1
		bad := func(format string, args ...any) (int, *Problem) {
			return i, &Problem{Line: e.Line, Seq: want, Msg: fmt.Sprintf(format, args...)}
		}
		if e.Err != nil {
			return bad("not a JSON record: %v", e.Err)
		}
		r := e.Record
		m := r.Metadata.Atreides
		switch {
		case m == nil:
			return bad("no %q metadata: not written by atreides, or edited", MetaKey)
		case !validVersion(r.Version):
			return bad("version %q is not X.Y.Z", r.Version)
		case r.ID == "" || r.Timestamp == "":
			return bad("id or timestamp missing")
		}
		claimed := m.Hash
		line, err := seal(&r)
		if err != nil {
			return bad("cannot re-encode: %v", err)
		}
		if m.Hash != claimed || !bytes.Equal(line, bytes.TrimRight(e.Raw, "\r")) {
			return bad("edited: its content no longer matches its hash")
		}
		if m.Seq != want {
			if m.Seq > want {
				return bad("record #%d comes next, so %d record(s) before it were deleted or moved", m.Seq, m.Seq-want)
			}
			return bad("out of order: sequence %d where %d was expected", m.Seq, want)
		}
		if m.Prev != prev {
			return bad("does not chain to the record before it (deleted, inserted or reordered)")
		}
		prev, seq = m.Hash, m.Seq
	}
	if head.Seq > seq {
		return len(entries), &Problem{Msg: fmt.Sprintf("the ledger ends at record #%d but #%d was written: records were removed from the end", seq, head.Seq)}
	}
	if head.Seq == seq && head.Hash != "" && head.Hash != prev {
		return len(entries), &Problem{Msg: fmt.Sprintf("the last record #%d is not the one written (hash differs): it was replaced", seq)}
	}
	return len(entries), nil
}

// Lines splits content into lines (LF-normalized), each without its
// terminator.
func Lines(content []byte) []string {
	s := strings.ReplaceAll(string(content), "\r\n", "\n")
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// ChangedRange compares before and after (whole file contents) and returns
// the span of lines in after that differ, hashed, and the number of lines
// removed when nothing replaced them. before == nil means unknown: the
// whole file is the range.
func ChangedRange(before, after []byte, beforeKnown bool) (r *Range, deleted int) {
	a := Lines(after)
	start, end := 0, len(a) // [start, end) in a
	if beforeKnown {
		b := Lines(before)
		for start < len(a) && start < len(b) && a[start] == b[start] {
			start++
		}
		ea, eb := len(a), len(b)
		for ea > start && eb > start && a[ea-1] == b[eb-1] {
			ea--
			eb--
		}
		end = ea
		if end == start {
			return nil, eb - start
		}
	}
	if end <= start {
		return nil, 0
	}
	var sb strings.Builder
	for _, l := range a[start:end] {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	return &Range{StartLine: start + 1, EndLine: end, ContentHash: Sum([]byte(sb.String()))}, 0
}

// GitRevision returns the commit checked out in the repository at root, or
// "" when there is none (no .git, an unborn branch).
func GitRevision(root string) string {
	gitDir := filepath.Join(root, ".git")
	if b, err := os.ReadFile(gitDir); err == nil {
		// A worktree or submodule: "gitdir: <path>".
		d := strings.TrimSpace(strings.TrimPrefix(string(b), "gitdir:"))
		if !filepath.IsAbs(d) {
			d = filepath.Join(root, d)
		}
		gitDir = d
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	h := strings.TrimSpace(string(head))
	ref, ok := strings.CutPrefix(h, "ref: ")
	if !ok {
		return validSHA(h)
	}
	if b, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref))); err == nil {
		return validSHA(strings.TrimSpace(string(b)))
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = filepath.Join(gitDir, strings.TrimSpace(string(b)))
		if b, err := os.ReadFile(filepath.Join(common, filepath.FromSlash(ref))); err == nil {
			return validSHA(strings.TrimSpace(string(b)))
		}
	}
	if b, err := os.ReadFile(filepath.Join(common, "packed-refs")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if sha, name, ok := strings.Cut(l, " "); ok && name == ref {
				return validSHA(sha)
			}
		}
	}
	return ""
}

func validSHA(s string) string {
	if len(s) == 40 || len(s) == 64 {
		if _, err := hex.DecodeString(s); err == nil {
			return s
		}
	}
	return ""
}
