// Package trace keeps the trace ledger, .atreides/trace.jsonl: one Agent
// Trace record (spec 0.1.0) per file change, hash-chained so that an edited,
// deleted or reordered line is detected, and anchored outside the
// repository by a signed checkpoint so that a rewritten or rolled-back
// ledger is detected too.
//
// Everything atreides adds lives under metadata["dev.atreides"], as the
// spec's closed objects require: the sequence number, the hash of the
// previous record, this record's own hash, and the intent, session, agent
// and tool call that made the change. A record says what changed (paths,
// line ranges, content hashes, the names of the programs a shell command
// ran), never the command's text or arguments, because the ledger is meant
// to be committed and arguments carry passwords.
//
// Files (all opened in files.go, through package confined: a link, FIFO
// or device in place of any of them, or of .atreides, is refused, never
// written through or waited on; the project root and the configuration
// directory themselves are the user's and are followed):
//
//   - trace.jsonl: the ledger, one record per line. [Writer.Append] writes
//     each line with one write(2) on an O_APPEND descriptor and cuts a
//     short or failed write back, so the file only ever grows by whole
//     lines; a tail without a newline (a process killed mid-write) is kept
//     aside in trace.jsonl.corrupt-<time> before the next append. Appends
//     must be serialized by the caller (the hook holds the state lock).
//   - trace.jsonl.pending/: records that could not be appended when they
//     were made ([Queue]: no lock was held, or the append failed), one file
//     each, appended in order by the next [Writer.Append]. [Verify]
//     reports them as missing until then. Not committed (the store's
//     .gitignore): they are not chained yet.
//   - <user config dir>/trace-key: the ed25519 key that signs checkpoints,
//     and <user config dir>/checkpoints/<project>.json: the last signed
//     head (sequence number and hash) of the project's ledger; see
//     checkpoint.go and docs/ledger.md for what this does and does not
//     detect.
//
// With a team store (store.Remote() != nil) the ledger is the store's
// append-only [Bucket] instead, shared by every checkout: records are
// sealed with [Seal] against the head in the shared project state, no
// file, queue or checkpoint is written, and [Load] is what every reader
// goes through, for either kind.
package trace

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	// The first line.
	StartLine int `json:"start_line"`
	// The last line.
	EndLine int `json:"end_line"`
	// The hash of those lines.
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
	HostTool  string `json:"tool,omitempty"` // the host's tool name: Write, Edit, Bash
	// Command is read, never written: earlier versions stored the
	// sanitized command here. It stays in the struct so that their records
	// re-encode byte for byte and still verify.
	Command string `json:"command,omitempty"`
	// Programs are the programs a shell command ran, by name, in order,
	// without arguments.
	Programs []string `json:"programs,omitempty"`
	Change   string   `json:"change"`           // create | modify | delete | unknown
	Before   string   `json:"before,omitempty"` // sha256:<hex> of the whole file before
	After    string   `json:"after,omitempty"`  // sha256:<hex> of the whole file after
	// Deleted counts lines removed without replacement at the range start.
	Deleted int `json:"deleted_lines,omitempty"`
	// Late says why the record was written without the file's state before
	// the call (its PreToolUse snapshot was not available): the change is
	// then "unknown" and only the state after is hashed.
	Late string `json:"late,omitempty"`
}

// Changes.
const (
	Create = "create"
	Modify = "modify"
	Delete = "delete"
	// Unknown is a change whose before-state was not seen (see Meta.Late).
	Unknown = "unknown"
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

// Seal chains r to head (sequence number head.Seq+1, the previous hash
// head.Hash), fills what it lacks (id, time, version), sets its hash, and
// returns its line without a newline and the head it makes. Both places
// a record is written use it: the file ([Writer.Append]) and the team
// store's [Bucket].
func Seal(r *Record, head Head) ([]byte, Head, error) {
	prepare(r)
	m := r.Metadata.Atreides
	m.Seq, m.Prev = head.Seq+1, head.Hash
	line, err := seal(r)
	if err != nil {
		return nil, head, err
	}
	return line, Head{Seq: m.Seq, Hash: m.Hash}, nil
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
