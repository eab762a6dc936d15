package trace

import (
	"bytes"
	"cmp"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The ledger and the state file live in the repository, so whoever can
// write the repository can rewrite both consistently. A checkpoint is the
// ledger's head (sequence number and hash of the last record) signed with
// a key that lives in the user's configuration directory, never in the
// repository, and kept there too, one file per project: rewriting a
// record then changes the hash at the checkpoint's sequence number, and
// restoring an older ledger leaves it shorter than the checkpoint. Both
// files are the guard's own files, which an agent's commands may not
// write.

// Names inside the user's configuration directory.
const (
	KeyFile        = "trace-key"
	CheckpointsDir = "checkpoints"
)

// keyHeader starts the key file: the seed of an ed25519 key, base64.
const keyHeader = "atreides-trace-key v1 ed25519 "

// signedPrefix separates checkpoint signatures from anything else the key
// might ever sign.
const signedPrefix = "atreides trace checkpoint\n"

// maxSpans bounds the unanchored spans a checkpoint carries.
const maxSpans = 32

// Anchor signs and checks the checkpoints of one project's ledger.
type Anchor struct {
	Dir     string // the user's atreides configuration directory
	Project string // the project root with symlinks resolved

	key ed25519.PrivateKey
}

// NewAnchor returns the anchor of the project at root, keyed by its real
// path so that two checkouts have two checkpoints.
func NewAnchor(configDir, root string) *Anchor {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return &Anchor{Dir: configDir, Project: root}
}

// KeyPath is the signing key's file.
func (a *Anchor) KeyPath() string { return filepath.Join(a.Dir, KeyFile) }

// CheckpointPaths are the project's two checkpoint files. Each signature
// overwrites the older of the two in place: a rename over the file would
// cost about a millisecond on ext4 (it flushes the data before the rename),
// a write in place a few microseconds, and a write cut short leaves the
// other file, one record older, to fall back on.
func (a *Anchor) CheckpointPaths() [2]string {
	rel := a.checkpoints()
	return [2]string{filepath.Join(a.Dir, rel[0]), filepath.Join(a.Dir, rel[1])}
}

// checkpoints are CheckpointPaths relative to the configuration directory.
func (a *Anchor) checkpoints() [2]string {
	sum := sha256.Sum256([]byte(a.Project))
	base := filepath.Join(CheckpointsDir, hex.EncodeToString(sum[:16]))
	return [2]string{base + ".a.json", base + ".b.json"}
}

// Span is a run of records, From to To inclusive.
type Span struct {
	From uint64 `json:"from"`
	To   uint64 `json:"to"`
}

// Checkpoint is a signed head of one project's ledger.
type Checkpoint struct {
	Version int    `json:"v"`
	Project string `json:"project"`
	Seq     uint64 `json:"seq"`
	Hash    string `json:"hash"`
	Time    string `json:"time"`
	// Unanchored are records this machine's atreides found in the ledger
	// without having written them: the ledger as it was when the first
	// checkpoint was made, and records appended after a checkpoint by
	// something else (another machine, a hand edit, a process killed
	// between the append and the signature).
	Unanchored []Span `json:"unanchored,omitempty"`
	Key        string `json:"key"` // "ed25519:<base64 public key>", for people; the key file decides
	Sig        string `json:"sig"`

	slot int // which of CheckpointPaths it was read from
}

func (c Checkpoint) message() []byte {
	c.Sig = ""
	b, _ := json.Marshal(c)
	return append([]byte(signedPrefix), b...)
}

// ErrNoCheckpoint is returned by [Anchor.Load] when the project has none.
var ErrNoCheckpoint = errors.New("no signed checkpoint for this project")

// Load returns the project's newest checkpoint whose signature the key
// file confirms. It creates nothing.
func (a *Anchor) Load() (*Checkpoint, error) {
	var found []*Checkpoint
	var firstErr error
	missing := 0
	for i, rel := range a.checkpoints() {
		p := filepath.Join(a.Dir, rel)
		b, err := readConfigFile(a.Dir, rel)
		if errors.Is(err, fs.ErrNotExist) {
			missing++
			continue
		}
		c := &Checkpoint{slot: i}
		if err == nil {
			err = json.Unmarshal(bytes.TrimRight(b, " \n"), c) // the padding of overwriteFile
		}
		if err != nil {
			firstErr = cmp.Or(firstErr, fmt.Errorf("checkpoint %s unreadable: %v", p, err))
			continue
		}
		found = append(found, c)
	}
	if missing == 2 {
		return nil, fmt.Errorf("%w (%s)", ErrNoCheckpoint, filepath.Dir(a.CheckpointPaths()[0]))
	}
	slices.SortFunc(found, func(x, y *Checkpoint) int { return cmp.Compare(y.Seq, x.Seq) })
	for _, c := range found {
		err := a.check(c)
		if err == nil {
			return c, nil
		}
		firstErr = cmp.Or(firstErr, err)
	}
	return nil, firstErr
}

// check confirms c's signature with the key file and its project.
func (a *Anchor) check(c *Checkpoint) error {
	p := a.CheckpointPaths()[c.slot]
	key, err := a.loadKey(false)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the signing key %s is missing, so checkpoint %s cannot be checked", a.KeyPath(), p)
	}
	if err != nil {
		return err
	}
	sig, err := base64.StdEncoding.DecodeString(c.Sig)
	if err != nil || !ed25519.Verify(key.Public().(ed25519.PublicKey), c.message(), sig) {
		return fmt.Errorf("checkpoint %s does not carry a valid signature by the key in %s (edited, or signed by another key)", p, a.KeyPath())
	}
	if c.Project != a.Project {
		return fmt.Errorf("checkpoint %s is for %s, not %s", p, c.Project, a.Project)
	}
	return nil
}

// loadKey reads the signing key; create makes one (0600, in a 0700
// directory) when there is none.
func (a *Anchor) loadKey(create bool) (ed25519.PrivateKey, error) {
	if a.key != nil {
		return a.key, nil
	}
	b, err := readConfigFile(a.Dir, KeyFile)
	if errors.Is(err, fs.ErrNotExist) && create {
		_, k, gerr := ed25519.GenerateKey(rand.Reader)
		if gerr != nil {
			return nil, gerr
		}
		text := keyHeader + base64.StdEncoding.EncodeToString(k.Seed()) + "\n"
		err = createConfigFile(a.Dir, KeyFile, []byte(text))
		if err == nil {
			a.key = k
			return k, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create signing key %s: %w", a.KeyPath(), err)
		}
		b, err = readConfigFile(a.Dir, KeyFile) // another process made it first
	}
	if err != nil {
		return nil, err
	}
	seed, ok := strings.CutPrefix(strings.TrimSpace(string(b)), keyHeader)
	raw, derr := base64.StdEncoding.DecodeString(seed)
	if !ok || derr != nil || len(raw) != ed25519.SeedSize {
		return nil, fmt.Errorf("signing key %s is not an atreides trace key", a.KeyPath())
	}
	a.key = ed25519.NewKeyFromSeed(raw)
	return a.key, nil
}

// sign writes c, signed, into the given slot of CheckpointPaths.
func (a *Anchor) sign(c *Checkpoint, slot int) error {
	key, err := a.loadKey(true)
	if err != nil {
		return err
	}
	c.Version, c.Project = 1, a.Project
	c.Key = "ed25519:" + base64.StdEncoding.EncodeToString(key.Public().(ed25519.PublicKey))
	c.Sig = base64.StdEncoding.EncodeToString(ed25519.Sign(key, c.message()))
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return overwriteConfigFile(a.Dir, a.checkpoints()[slot], append(b, '\n'))
}

// anchoring is one append's decision about the checkpoint.
type anchoring struct {
	a     *Anchor
	carry []Span
	slot  int // the slot to sign into: not the one holding the newest
}

// begin compares the ledger as found (its last record is last; hashAt
// finds earlier ones) with the checkpoint, before anything is appended.
// It returns nil when the checkpoint must be left as it is: the ledger no
// longer contains the head it signed (rewritten, truncated, rolled back),
// or the checkpoint cannot be trusted. Signing over that would launder
// the change, so the checkpoint stays as evidence, verify keeps failing,
// and each append says so until a person looks and removes the
// checkpoint file.
func (a *Anchor) begin(last Head, hashAt func(seq uint64) string, notes *[]string) *anchoring {
	c, err := a.Load()
	switch {
	case errors.Is(err, ErrNoCheckpoint):
		x := &anchoring{a: a}
		if last.Seq > 0 {
			x.carry = []Span{{From: 1, To: last.Seq}}
			*notes = append(*notes, fmt.Sprintf("first trace checkpoint for this project: records #1–#%d were written before it and are not anchored", last.Seq))
		}
		return x
	case err != nil:
		*notes = append(*notes, fmt.Sprintf("trace checkpoint left unchanged: %v; run `atreides trace verify`", err))
		return nil
	case c.Seq > last.Seq:
		*notes = append(*notes, fmt.Sprintf("trace checkpoint left unchanged: it signed record #%d but the ledger ends at #%d (truncated or rolled back); run `atreides trace verify`", c.Seq, last.Seq))
		return nil
	}
	h := last.Hash
	if c.Seq < last.Seq {
		h = hashAt(c.Seq)
	}
	if h != c.Hash {
		*notes = append(*notes, fmt.Sprintf("trace checkpoint left unchanged: record #%d is not the one it signed (rewritten); run `atreides trace verify`", c.Seq))
		return nil
	}
	x := &anchoring{a: a, carry: c.Unanchored, slot: 1 - c.slot}
	if c.Seq < last.Seq {
		x.carry = addSpan(x.carry, Span{From: c.Seq + 1, To: last.Seq})
		*notes = append(*notes, fmt.Sprintf("trace records #%d–#%d were appended after the last checkpoint by something other than atreides on this machine; they are recorded as unanchored", c.Seq+1, last.Seq))
	}
	return x
}

// finish signs the new head.
func (x *anchoring) finish(h Head) error {
	return x.a.sign(&Checkpoint{Seq: h.Seq, Hash: h.Hash, Time: time.Now().UTC().Format(time.RFC3339Nano), Unanchored: x.carry}, x.slot)
}

// addSpan appends s, merging it into the last span when they touch; past
// maxSpans the last two merge (overstating, never hiding, what is
// unanchored).
func addSpan(spans []Span, s Span) []Span {
	if n := len(spans); n > 0 && spans[n-1].To+1 >= s.From {
		spans[n-1].To = max(spans[n-1].To, s.To)
		return spans
	}
	spans = append(spans, s)
	if n := len(spans); n > maxSpans {
		spans[n-2].To = spans[n-1].To
		spans = spans[:n-1]
	}
	return spans
}
