package view

import (
	"cmp"
	"context"
	"slices"

	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/trace"
)

// Ledger is the trace ledger: its verification, the records that match a
// filter, and how many records each file and intent has.
type Ledger struct {
	Verify  trace.Report   `json:"verify"`
	Records []LedgerRecord `json:"records"` // oldest first
	// Total counts the records that matched before Limit kept the newest.
	Total   int          `json:"total"`
	Files   []LedgerKey  `json:"files"`   // by path
	Intents []LedgerKey  `json:"intents"` // by intent id ("" for changes outside any)
	Error   string       `json:"error,omitempty"`
	Bad     []LedgerLine `json:"bad,omitempty"` // lines that are not records
}

// LedgerKey is a file or intent and its records.
type LedgerKey struct {
	Key     string `json:"key"`
	Records int    `json:"records"`
	LastSeq uint64 `json:"last_seq"`
}

// LedgerLine is a line of the ledger that is not a record.
type LedgerLine struct {
	Line  int    `json:"line"`
	Error string `json:"error"`
	Torn  bool   `json:"torn,omitempty"`
}

// LedgerRecord is one change, as the dashboard and export show it.
type LedgerRecord struct {
	Seq       uint64       `json:"seq"`
	Line      int          `json:"line"`
	Time      string       `json:"time"`
	Intent    string       `json:"intent,omitempty"`
	Session   string       `json:"session,omitempty"`
	Agent     string       `json:"agent,omitempty"`
	Host      string       `json:"host,omitempty"`
	Tool      string       `json:"tool,omitempty"`
	Programs  []string     `json:"programs,omitempty"`
	Change    string       `json:"change"`
	Before    string       `json:"before,omitempty"`
	After     string       `json:"after,omitempty"`
	Hash      string       `json:"hash"`
	Prev      string       `json:"prev"`
	Revision  string       `json:"revision,omitempty"`
	Files     []LedgerFile `json:"files"`
	Deleted   int          `json:"deleted_lines,omitempty"`
	Late      string       `json:"late,omitempty"`
	ToolUseID string       `json:"tool_use_id,omitempty"`
}

// LedgerFile is one file a record changed, with its line ranges.
type LedgerFile struct {
	// The path, relative to the root.
	Path string `json:"path"`
	// The lines changed.
	Ranges []trace.Range `json:"ranges"`
}

// LedgerFilter selects records; the zero filter selects all.
type LedgerFilter struct {
	File, Intent, Session string
	// Limit keeps the newest Limit records (0: all).
	Limit int
}

// Ledger reads and verifies the project's ledger: the team store's when
// the project keeps its state in one (trace.Load).
func (s *Snapshot) Ledger(f LedgerFilter) Ledger {
	l := Ledger{Records: []LedgerRecord{}, Files: []LedgerKey{}, Intents: []LedgerKey{}}
	tl, err := s.loadLedger()
	if err != nil {
		l.Error = err.Error()
		l.Verify = trace.Report{Problem: &trace.Problem{Msg: l.Error}, Unanchored: []trace.Span{}}
		return l
	}
	var anchor *trace.Anchor
	if s.Opts.KeyDir != "" {
		anchor = trace.NewAnchor(s.Opts.KeyDir, s.Root)
	}
	l.Verify = tl.Verify(anchor)
	entries, err := tl.Entries()
	if err != nil {
		l.Error = err.Error()
	}
	files, intents := map[string]*LedgerKey{}, map[string]*LedgerKey{}
	for _, e := range entries {
		if e.Err != nil || e.Record.Metadata.Atreides == nil {
			msg := "not an atreides record"
			if e.Err != nil {
				msg = e.Err.Error()
			}
			l.Bad = append(l.Bad, LedgerLine{Line: e.Line, Error: msg, Torn: e.Torn})
			continue
		}
		r := recordOf(e)
		count(intents, r.Intent, r.Seq)
		for _, fl := range r.Files {
			count(files, fl.Path, r.Seq)
		}
		if f.matches(&r) {
			l.Records = append(l.Records, r)
		}
	}
	l.Total = len(l.Records)
	if f.Limit > 0 && len(l.Records) > f.Limit {
		l.Records = l.Records[len(l.Records)-f.Limit:]
	}
	l.Files, l.Intents = sorted(files), sorted(intents)
	return l
}

// LedgerRecord reads the record seq of the ledger, without verifying the
// chain (the ledger view does that): nil when there is none.
func (s *Snapshot) LedgerRecord(seq uint64) (*LedgerRecord, error) {
	l, err := s.loadLedger()
	if err != nil {
		return nil, err
	}
	entries, err := l.Entries()
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Err == nil && e.Record.Metadata.Atreides != nil && e.Record.Metadata.Atreides.Seq == seq {
			r := recordOf(e)
			return &r, nil
		}
	}
	return nil, nil
}

// loadLedger reads the project's ledger, from its store as of now: the
// ledger is not part of the snapshot's read of the state.
func (s *Snapshot) loadLedger() (*trace.Ledger, error) {
	return trace.Load(context.Background(), fleet.Open(s.Root))
}

func recordOf(e trace.Entry) LedgerRecord {
	rec, m := &e.Record, e.Record.Metadata.Atreides
	r := LedgerRecord{
		Seq: m.Seq, Line: e.Line, Time: rec.Timestamp, Intent: m.Intent, Session: m.Session,
		Agent: cmp.Or(m.AgentType, m.Agent), Host: m.Host, Tool: m.HostTool, Programs: m.Programs,
		Change: m.Change, Before: m.Before, After: m.After, Hash: m.Hash, Prev: m.Prev,
		Deleted: m.Deleted, Late: m.Late, ToolUseID: m.ToolUseID, Files: []LedgerFile{},
	}
	if rec.VCS != nil {
		r.Revision = rec.VCS.Revision
	}
	for _, fl := range rec.Files {
		lf := LedgerFile{Path: fl.Path, Ranges: []trace.Range{}}
		for _, c := range fl.Conversations {
			lf.Ranges = append(lf.Ranges, c.Ranges...)
		}
		r.Files = append(r.Files, lf)
	}
	return r
}

func (f LedgerFilter) matches(r *LedgerRecord) bool {
	if f.Intent != "" && r.Intent != f.Intent || f.Session != "" && r.Session != f.Session {
		return false
	}
	return f.File == "" || slices.ContainsFunc(r.Files, func(lf LedgerFile) bool { return lf.Path == f.File })
}

func count(m map[string]*LedgerKey, key string, seq uint64) {
	k := m[key]
	if k == nil {
		k = &LedgerKey{Key: key}
		m[key] = k
	}
	k.Records++
	k.LastSeq = max(k.LastSeq, seq)
}

func sorted(m map[string]*LedgerKey) []LedgerKey {
	out := make([]LedgerKey, 0, len(m))
	for _, k := range m {
		out = append(out, *k)
	}
	slices.SortFunc(out, func(a, b LedgerKey) int { return cmp.Compare(a.Key, b.Key) })
	return out
}
