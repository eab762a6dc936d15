package governance

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/shellcall"
	"github.com/atreides-dev/atreides/internal/trace"
)

// maxKept is the largest file whose content is kept before a write, so the
// changed line range can be computed; larger files are recorded whole.
const maxKept = 64 << 10

// maxHashed is the largest file whose content is read and hashed. Reading
// a larger one would hold the state lock (a PreToolUse snapshots under it)
// for a noticeable time; it is tracked by size and modification time, and
// its records carry neither hashes nor a range.
const maxHashed = 16 << 20

// target is what a path a tool call writes holds, as the ledger sees it.
type target struct {
	exists bool // anything is there, a dangling link too
	// hash is "sha256:<hex>" of a regular file of up to maxHashed bytes,
	// "size:<n>,mtime:<ns>" of a larger one, "" for anything else (a
	// directory, a FIFO, a device, an unreadable file), which is tracked
	// by existence only.
	hash    string
	content []byte // the whole content when hash is a sha256
}

// readTarget reads the file at p for the ledger. The agent chose p, so it
// may be anything: a FIFO or a device there must not block the hook
// (opening a FIFO for reading waits for a writer), so only what stat calls
// a regular file is opened, without blocking, and fstat must agree (it may
// have been swapped meanwhile). Links are followed: the tool wrote
// through them too.
func readTarget(p string) target {
	fi, err := os.Stat(p)
	if err != nil {
		// A dangling link exists all the same.
		if _, err := os.Lstat(p); err != nil {
			return target{}
		}
		return target{exists: true}
	}
	t := target{exists: true}
	if !fi.Mode().IsRegular() {
		return t
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return t
	}
	defer f.Close()
	fi, err = f.Stat()
	switch {
	case err != nil || !fi.Mode().IsRegular():
		return t
	case fi.Size() > maxHashed:
		t.hash = fmt.Sprintf("size:%d,mtime:%d", fi.Size(), fi.ModTime().UnixNano())
		return t
	}
	// Sized from fstat, so one read fills it; the limit still catches a
	// file that grew meanwhile.
	buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
	_, err = buf.ReadFrom(io.LimitReader(f, maxHashed+1))
	b := buf.Bytes()
	if err != nil || len(b) > maxHashed { // unreadable, or grown past the bound while read
		return t
	}
	t.hash, t.content = trace.Sum(b), b
	return t
}

// summed is h when it is a content hash, the only kind a record carries.
func summed(h string) string {
	if strings.HasPrefix(h, "sha256:") {
		return h
	}
	return ""
}

// snapshot hashes the files a tool call is about to write.
func (g *gov) snapshot(intentID string, paths []string) {
	s := g.s()
	snap := Snap{ToolUseID: g.ev().ToolUseID, Intent: intentID, Time: g.now}
	for _, p := range paths {
		t := readTarget(p)
		fs := FileSnap{Path: p, Exists: t.exists, Hash: t.hash}
		if summed(t.hash) != "" && len(t.content) <= maxKept {
			fs.Content, fs.Kept = string(t.content), true
		}
		snap.Files = append(snap.Files, fs)
	}
	s.Snaps = slices.DeleteFunc(s.Snaps, func(x Snap) bool { return x.ToolUseID == snap.ToolUseID })
	s.Snaps = append(s.Snaps, snap)
	if over := len(s.Snaps) - MaxSnaps; over > 0 {
		s.Snaps = s.Snaps[over:]
	}
}

// postTool appends a ledger record for every file the call changed.
func (g *gov) postTool() error {
	ev := g.ev()
	s := g.s()
	i := slices.IndexFunc(s.Snaps, func(x Snap) bool { return x.ToolUseID == ev.ToolUseID && ev.ToolUseID != "" })
	if i < 0 {
		if slices.Contains(s.Recorded, ev.ToolUseID) {
			return nil // a replay of a call already recorded: once per tool use
		}
		return g.lateRecords()
	}
	snap := s.Snaps[i]
	s.Snaps = slices.Delete(s.Snaps, i, i+1)
	if !g.o.Trace {
		return nil
	}
	if g.stateLoaded() {
		s.recorded(ev.ToolUseID)
	}
	for _, f := range snap.Files {
		after := readTarget(f.Path)
		if after.exists && after.hash == "" {
			continue // a directory, FIFO or unreadable file: not a file change we can see
		}
		if after.exists == f.Exists && after.hash == f.Hash {
			continue // unchanged
		}
		change := trace.Modify
		switch {
		case !f.Exists:
			change = trace.Create
		case !after.exists:
			change = trace.Delete
		}
		var ranges []trace.Range
		deleted := 0
		if summed(after.hash) != "" {
			r, d := trace.ChangedRange([]byte(f.Content), after.content, f.Kept || !f.Exists)
			deleted = d
			if r != nil {
				ranges = append(ranges, *r)
			}
		}
		rec := g.record(f.Path, ranges)
		m := rec.Metadata.Atreides
		m.Intent, m.Change, m.Before, m.After, m.Deleted = snap.Intent, change, summed(f.Hash), summed(after.hash), deleted
		if err := g.appendRecord(rec, false); err != nil {
			return err
		}
	}
	return nil
}

// lateWhy is Meta.Late of a record made without a snapshot.
const lateWhy = "no snapshot before the call (the state lock was busy, or its PreToolUse was not seen): the state before is unknown"

// lateRecords records a write whose snapshot is missing. PreToolUse takes
// the snapshot inside the state transaction; when that transaction did not
// happen (the hook could not get the state lock in time and the engine ran
// on fresh state that is never saved), or this PostToolUse itself runs on
// such state, the snapshot is not here. The change must not go unrecorded,
// so every path the call writes gets a record of the state after it,
// change "unknown". On state that is not saved (so not under the lock that
// serializes appends) the record is queued for the next append instead.
func (g *gov) lateRecords() error {
	ev := g.ev()
	if !g.o.Trace || ev.ToolUseID == "" {
		return nil
	}
	if g.stateLoaded() {
		g.s().recorded(ev.ToolUseID)
	}
	paths, _ := g.targets()
	for _, p := range paths {
		rec := g.record(p, nil)
		m := rec.Metadata.Atreides
		m.Change, m.Late = trace.Unknown, lateWhy
		t := readTarget(p)
		if t.exists && t.hash == "" {
			continue // a directory, FIFO or unreadable file
		}
		m.After = summed(t.hash)
		if err := g.appendRecord(rec, !g.stateLoaded()); err != nil {
			return err
		}
	}
	return nil
}

// stateLoaded reports whether this event runs on the saved state, inside
// the store's transaction and so under the lock that serializes appends.
// When the store could not be loaded (a lock wait that timed out, a
// refused file) the engine runs the handlers on fresh, unsaved state, and
// a record is queued instead of appended.
func (g *gov) stateLoaded() bool { return !g.c.State.Unsaved }

// version is the version trace records name ("" when Options.Version
// is not set).
func (o *Options) version() string {
	if o.Version == nil {
		return ""
	}
	return o.Version()
}

// record is the ledger record of a change to path by this call, without
// the change itself.
func (g *gov) record(path string, ranges []trace.Range) *trace.Record {
	ev := g.ev()
	root := ev.ProjectDir
	if ranges == nil {
		ranges = []trace.Range{}
	}
	rec := &trace.Record{
		Tool:      &trace.Tool{Name: "atreides", Version: g.o.version()},
		Timestamp: g.now.UTC().Format(time.RFC3339Nano),
		Files: []trace.File{{
			Path: intent.Relative(root, path),
			Conversations: []trace.Conversation{{
				Contributor: &trace.Contributor{Type: "ai"},
				Ranges:      ranges,
				Related:     []trace.Related{{Type: "session", URL: "atreides://session/" + ev.SessionID}},
			}},
		}},
		Metadata: trace.Metadata{Atreides: &trace.Meta{
			Session: ev.SessionID, Agent: ev.AgentID, AgentType: ev.AgentType,
			ToolUseID: ev.ToolUseID, Host: ev.Host, HostTool: ev.Tool.Raw,
		}},
	}
	if ev.Tool.Name == event.Shell {
		rec.Metadata.Atreides.Programs = shellcall.Effects(g.c).Programs
	}
	if rev := g.revision(); rev != "" {
		rec.VCS = &trace.VCS{Type: "git", Revision: rev}
	}
	return rec
}

// revision is the commit checked out in the project, read from .git once
// per event however many files the call changed.
func (g *gov) revision() string {
	if g.rev == nil {
		rev := trace.GitRevision(g.ev().ProjectDir)
		g.rev = &rev
	}
	return *g.rev
}

// appendRecord appends rec to the ledger and moves the state's head. A
// record that cannot be appended now (queue, or the append failed) is
// queued for the next append, never dropped; only if even that fails is
// it an error, which the engine logs.
func (g *gov) appendRecord(rec *trace.Record, queue bool) error {
	if g.o.Team {
		return g.appendTeam(rec, queue)
	}
	path := TracePath(g.ev().ProjectDir)
	if queue {
		return trace.Queue(path, rec)
	}
	w := &trace.Writer{Path: path}
	if g.o.KeyDir != "" {
		w.Anchor = trace.NewAnchor(g.o.KeyDir, g.ev().ProjectDir)
	}
	res, err := w.Append(rec)
	for _, n := range res.Notes {
		g.c.Env.Logf("trace: %s", n)
	}
	if res.Head.Seq > 0 {
		g.p().Trace = govstate.TraceHead{Seq: res.Head.Seq, Hash: res.Head.Hash}
	}
	if err == nil {
		return nil
	}
	if qerr := trace.Queue(path, rec); qerr != nil {
		return fmt.Errorf("%w; the record could not be queued either: %v", err, qerr)
	}
	g.c.Env.Logf("trace: record queued for the next append: %v", err)
	return nil
}

// appendTeam appends rec to the team store's ledger: chained to the head
// in the shared project state, which the store's per-project lock
// serializes across machines, and written in the event's transaction, so
// the record and the head are kept or lost together. On a state that is
// not saved (the store unreachable) there is no head to chain to and no
// transaction to write in: the event waits in the outbox, and its replay
// makes the record then (governance denies the writes it checks while the
// store is down, so only a write allowed before the outage and finished
// during it is recorded late).
func (g *gov) appendTeam(rec *trace.Record, unsaved bool) error {
	if unsaved {
		g.c.Env.Logf("trace: record of %s waits with its event for the team store (%v)", rec.Files[0].Path, g.c.State.LoadErr)
		return nil
	}
	h := g.p().Trace
	line, head, err := trace.Seal(rec, trace.Head{Seq: h.Seq, Hash: h.Hash})
	if err != nil {
		return fmt.Errorf("trace: seal a record: %w", err)
	}
	g.c.State.Append(trace.Bucket, line)
	g.p().Trace = govstate.TraceHead{Seq: head.Seq, Hash: head.Hash}
	return nil
}
