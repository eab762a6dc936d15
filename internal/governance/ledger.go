package governance

import (
	"os"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/sanitize"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/trace"
)

// maxKept is the largest file whose content is kept before a write, so the
// changed line range can be computed; larger files are recorded whole.
const maxKept = 64 << 10

// snapshot hashes the files a tool call is about to write.
func (g *gov) snapshot(intentID string, paths []string) {
	s := g.s()
	snap := state.Snap{ToolUseID: g.ev().ToolUseID, Intent: intentID, Time: g.now}
	for _, p := range paths {
		fs := state.FileSnap{Path: p}
		if b, err := os.ReadFile(p); err == nil {
			fs.Exists, fs.Hash = true, trace.Sum(b)
			if len(b) <= maxKept {
				fs.Content, fs.Kept = string(b), true
			}
		} else if _, err := os.Lstat(p); err == nil {
			fs.Exists = true // a directory or unreadable file: tracked by existence only
		}
		snap.Files = append(snap.Files, fs)
	}
	s.Snaps = slices.DeleteFunc(s.Snaps, func(x state.Snap) bool { return x.ToolUseID == snap.ToolUseID })
	s.Snaps = append(s.Snaps, snap)
	if over := len(s.Snaps) - state.MaxSnaps; over > 0 {
		s.Snaps = s.Snaps[over:]
	}
}

// postTool appends a ledger record for every file the call changed.
func (g *gov) postTool() error {
	ev := g.ev()
	s := g.s()
	i := slices.IndexFunc(s.Snaps, func(x state.Snap) bool { return x.ToolUseID == ev.ToolUseID && ev.ToolUseID != "" })
	if i < 0 {
		return nil
	}
	snap := s.Snaps[i]
	s.Snaps = slices.Delete(s.Snaps, i, i+1)
	if !g.o.Trace {
		return nil
	}
	root := ev.ProjectDir
	var rev string
	revDone := false
	for _, f := range snap.Files {
		after, err := os.ReadFile(f.Path)
		exists := err == nil
		if !exists {
			if _, lerr := os.Lstat(f.Path); lerr == nil {
				continue // a directory: not a file change
			}
		}
		var afterHash string
		if exists {
			afterHash = trace.Sum(after)
		}
		if exists == f.Exists && afterHash == f.Hash {
			continue // unchanged
		}
		change := trace.Modify
		switch {
		case !f.Exists:
			change = trace.Create
		case !exists:
			change = trace.Delete
		}
		var ranges []trace.Range
		deleted := 0
		if exists {
			r, d := trace.ChangedRange([]byte(f.Content), after, f.Kept || !f.Exists)
			deleted = d
			if r != nil {
				ranges = append(ranges, *r)
			}
		}
		if ranges == nil {
			ranges = []trace.Range{}
		}
		if !revDone {
			rev, revDone = trace.GitRevision(root), true
		}
		rec := &trace.Record{
			Tool: &trace.Tool{Name: "atreides", Version: g.o.Version},
			Files: []trace.File{{
				Path: intent.Relative(root, f.Path),
				Conversations: []trace.Conversation{{
					Contributor: &trace.Contributor{Type: "ai"},
					Ranges:      ranges,
					Related:     []trace.Related{{Type: "session", URL: "atreides://session/" + ev.SessionID}},
				}},
			}},
			Metadata: trace.Metadata{Atreides: &trace.Meta{
				Intent: snap.Intent, Session: ev.SessionID, Agent: ev.AgentID, AgentType: ev.AgentType,
				ToolUseID: ev.ToolUseID, Host: ev.Host, HostTool: ev.Tool.Raw,
				Change: change, Before: f.Hash, After: afterHash, Deleted: deleted,
			}},
		}
		if ev.Tool.Name == event.Shell {
			rec.Metadata.Atreides.Command = sanitize.Command(ev.Tool.Command)
		}
		if rev != "" {
			rec.VCS = &trace.VCS{Type: "git", Revision: rev}
		}
		rec.Timestamp = g.now.UTC().Format(time.RFC3339Nano)
		h, err := trace.Append(TracePath(root), rec)
		if err != nil {
			return err
		}
		g.p().Trace = state.TraceHead{Seq: h.Seq, Hash: h.Hash}
	}
	return nil
}
