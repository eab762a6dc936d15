package trace

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// Problem is the first thing wrong that [Verify] found.
type Problem struct {
	Line int    `json:"line"` // line in the file, 0 for the ledger as a whole
	Seq  uint64 `json:"seq"`  // the sequence number concerned, 0 if none
	Msg  string `json:"msg"`
}

func (p *Problem) Error() string {
	if p.Line == 0 {
		return p.Msg
	}
	return fmt.Sprintf("line %d (record #%d): %s", p.Line, p.Seq, p.Msg)
}

// Head sources.
const (
	SourceCheckpoint = "checkpoint" // the signed checkpoint in the user's config directory
	SourceState      = "state"      // the project's state file (git-ignored, but in the repository's directory)
	SourceStore      = "store"      // the project's state in the team store, beside the ledger
	SourceNone       = "none"
)

// Checkpoint statuses.
const (
	CheckpointOK        = "ok"        // signature valid; checked against the ledger
	CheckpointMissing   = "missing"   // no checkpoint for this project
	CheckpointUntrusted = "untrusted" // unreadable, bad signature, or the key is gone
	CheckpointOff       = "off"       // no configuration directory to keep one in
	CheckpointTeam      = "team"      // none kept: the ledger is in the team store, which refuses edits
)

// Report is the outcome of [Verify]; its JSON form is what `atreides
// trace verify --json` prints (docs/ledger.md documents it).
type Report struct {
	OK bool `json:"ok"`
	// Records is the number of records that check out, from the first.
	Records int `json:"records"`
	// Head is the head the ledger was checked against.
	Head struct {
		Seq    uint64 `json:"seq"`
		Hash   string `json:"hash"`
		Source string `json:"source"`
	} `json:"head"`
	Checkpoint CheckpointReport `json:"checkpoint"`
	Problem    *Problem         `json:"problem"`
	// Missing counts records queued but not yet in the chain.
	Missing int `json:"missing"`
	// Unanchored are the records no checkpoint of this machine vouches for.
	Unanchored []Span `json:"unanchored"`
	// Late counts records written without the file's state before the
	// change (Meta.Late).
	Late int `json:"late"`
	// TornBytes is the length of an incomplete last line (a write cut
	// short); the next append keeps it aside.
	TornBytes int `json:"torn_bytes"`
}

// CheckpointReport describes the signed checkpoint.
type CheckpointReport struct {
	Status string `json:"status"`
	Path   string `json:"path,omitempty"`
	Seq    uint64 `json:"seq,omitempty"`
	Hash   string `json:"hash,omitempty"`
	Time   string `json:"time,omitempty"`
	Key    string `json:"key,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Verify checks the ledger at path: every record's hash and its link to
// the one before, then the ledger against each head known, the signed
// checkpoint (a != nil) and the state file's (state != nil): the ledger
// must reach the head's sequence number and the record there must have
// the head's hash, which detects records removed from the end and records
// rewritten and rehashed even when more were appended after. A ledger with
// records and no head to check against is not OK ("head unknown"). Verify
// only reads.
func Verify(path string, state *Head, a *Anchor) Report {
	data, err := readLedger(path)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	rep := verify(data, err, heads{state: state, anchor: a})
	rep.Missing = Missing(path)
	return rep
}

// heads are what a ledger is checked against.
type heads struct {
	state  *Head   // the head the project's state keeps
	anchor *Anchor // the signed checkpoint; nil: none
	// team: the ledger and the state are the team store's, which keeps
	// no checkpoint (docs/ledger.md says why).
	team bool
}

// verify is [Verify] of a ledger's lines, data, which could not be read
// when readErr is set.
func verify(data []byte, readErr error, h heads) Report {
	rep := Report{Unanchored: []Span{}}
	rep.Head.Source = SourceNone
	problem := func(p *Problem) {
		if rep.Problem == nil {
			rep.Problem = p
		}
	}
	if readErr != nil {
		problem(&Problem{Msg: readErr.Error()})
	}
	hashes, lines := rep.chain(data, problem)

	check := func(h Head, source string) {
		switch {
		case h.Seq == 0:
		case h.Seq > uint64(len(hashes)):
			if rep.Problem == nil {
				problem(&Problem{Seq: h.Seq, Msg: fmt.Sprintf("the ledger ends at record #%d but the %s says #%d was written: records were removed from the end, or the ledger was rolled back", len(hashes), source, h.Seq)})
			}
		case hashes[h.Seq-1] != h.Hash:
			problem(&Problem{Line: lines[h.Seq-1], Seq: h.Seq, Msg: fmt.Sprintf("not the record the %s says was written (its hash differs): it was rewritten", source)})
		}
	}
	stateName, stateSource := "state file", SourceState
	if h.team {
		rep.Checkpoint.Status = CheckpointTeam
		stateName, stateSource = "team store's project state", SourceStore
	} else {
		rep.anchor(h.anchor, len(hashes), check, problem)
	}
	if h.state != nil {
		check(*h.state, stateName)
		if rep.Head.Source == SourceNone {
			rep.Head.Seq, rep.Head.Hash, rep.Head.Source = h.state.Seq, h.state.Hash, stateSource
		}
	}
	if rep.Head.Source == SourceNone && rep.Records > 0 {
		problem(&Problem{Msg: "head unknown: there is no signed checkpoint and no state file, so records removed from the end or rewritten with every later hash cannot be detected"})
	}
	rep.OK = rep.Problem == nil
	return rep
}

// chain checks every record and its link to the one before; it returns
// the hashes and line numbers of the records that check out, in order.
func (rep *Report) chain(data []byte, problem func(*Problem)) (hashes []string, lines []int) {
	prev, seq := "", uint64(0)
	for _, e := range Parse(data) {
		want := seq + 1
		r, err := check(e.Raw)
		if err != nil && e.Torn {
			rep.TornBytes = len(e.Raw)
			return
		}
		if err == nil {
			m := r.Metadata.Atreides
			switch {
			case m.Seq > want:
				err = fmt.Errorf("record #%d comes next, so %d record(s) before it were deleted or moved", m.Seq, m.Seq-want)
			case m.Seq < want:
				err = fmt.Errorf("out of order: sequence %d where %d was expected", m.Seq, want)
			case m.Prev != prev:
				err = errors.New("does not chain to the record before it (deleted, inserted or reordered)")
			}
		}
		if err != nil {
			problem(&Problem{Line: e.Line, Seq: want, Msg: err.Error()})
			return
		}
		m := r.Metadata.Atreides
		if m.Late != "" {
			rep.Late++
		}
		prev, seq = m.Hash, m.Seq
		hashes, lines = append(hashes, m.Hash), append(lines, e.Line)
		rep.Records++
	}
	return
}

// anchor checks the signed checkpoint and takes its head.
func (rep *Report) anchor(a *Anchor, records int, check func(Head, string), problem func(*Problem)) {
	c := &rep.Checkpoint
	if a == nil || a.Dir == "" {
		c.Status = CheckpointOff
		return
	}
	c.Path = filepath.Dir(a.CheckpointPaths()[0])
	ck, err := a.Load()
	switch {
	case errors.Is(err, ErrNoCheckpoint):
		c.Status = CheckpointMissing
		return
	case err != nil:
		c.Status, c.Error = CheckpointUntrusted, err.Error()
		problem(&Problem{Msg: "the signed checkpoint cannot be trusted: " + err.Error()})
		return
	}
	c.Path = a.CheckpointPaths()[ck.slot]
	c.Status, c.Seq, c.Hash, c.Time, c.Key = CheckpointOK, ck.Seq, ck.Hash, ck.Time, ck.Key
	check(Head{Seq: ck.Seq, Hash: ck.Hash}, "signed checkpoint")
	rep.Head.Seq, rep.Head.Hash, rep.Head.Source = ck.Seq, ck.Hash, SourceCheckpoint
	rep.Unanchored = append(rep.Unanchored, ck.Unanchored...)
	if uint64(records) > ck.Seq {
		rep.Unanchored = addSpan(rep.Unanchored, Span{From: ck.Seq + 1, To: uint64(records)})
	}
}
