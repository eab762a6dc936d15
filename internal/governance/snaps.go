package governance

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// Snapshots is what governance remembers of one session, its group of the
// session record: the file snapshots taken before a write so the ledger
// can record what changed. (Subagents are package subagents' group.)
type Snapshots struct {
	// Snaps are the files a pending tool call may change, hashed before
	// the call, keyed by tool-use id.
	Snaps []Snap `json:"snaps,omitempty"`
	// Recorded are the tool-use ids whose changes the ledger has, the
	// newest last, at most MaxRecorded: a PostToolUse the host sends
	// again finds its snapshot gone, and without them would be recorded a
	// second time as a late change (in a team's store too, whose ledger
	// the trace writer's own check does not read).
	Recorded []string `json:"recorded,omitempty"`
}

// MaxRecorded bounds Snapshots.Recorded.
const MaxRecorded = 32

// recorded notes that the ledger has the changes of tool use id.
func (g *Snapshots) recorded(id string) {
	if id == "" || slices.Contains(g.Recorded, id) {
		return
	}
	g.Recorded = append(g.Recorded, id)
	if over := len(g.Recorded) - MaxRecorded; over > 0 {
		g.Recorded = append(g.Recorded[:0], g.Recorded[over:]...)
	}
}

// Snap is a file's state before a tool call.
type Snap struct {
	ToolUseID string     `json:"tool_use_id"`
	Intent    string     `json:"intent,omitempty"` // the intent the write was allowed under
	Files     []FileSnap `json:"files"`
	Time      time.Time  `json:"t"`
}

// FileSnap is one file before a change. Content is kept only for small
// files, so the changed line ranges can be computed afterwards.
type FileSnap struct {
	Path    string `json:"path"` // absolute
	Exists  bool   `json:"exists"`
	Hash    string `json:"hash,omitempty"`
	Content string `json:"content,omitempty"`
	Kept    bool   `json:"kept,omitempty"` // Content holds the whole file
}

// MaxSnaps bounds pending snapshots per session; stale ones (a PostToolUse
// that never came) are dropped oldest first.
const MaxSnaps = 16

// SnapsKey is the group's key; its section's tag, 7, is in records on
// disk.
var SnapsKey = state.SessionKey[Snapshots]{Tag: 7, Name: "session governance", JSON: "governance", Fields: (*Snapshots).fields}

// The section began with three lists (spawns, subagents, reports) that
// moved to the delegation group; it still writes them empty and skips
// what an older record holds, so that the section's layout, and with it
// the record's version, stay as they were.
func (g *Snapshots) fields(c *binrec.Codec) {
	type spawn struct {
		parent, typ, toolUseID string
		time                   time.Time
	}
	type subagent struct {
		id, typ, parent  string
		depth            int
		started, stopped time.Time
		outcome, detail  string
	}
	type report struct{ parent, text string }
	var spawns []spawn
	var agents []subagent
	var reports []report
	binrec.List(c, &spawns, func(p *spawn, c *binrec.Codec) {
		c.Str(&p.parent, &p.typ, &p.toolUseID)
		c.Time(&p.time)
	})
	binrec.List(c, &agents, func(d *subagent, c *binrec.Codec) {
		c.Str(&d.id, &d.typ, &d.parent)
		c.Int(&d.depth)
		c.Time(&d.started, &d.stopped)
		c.Str(&d.outcome, &d.detail)
	})
	binrec.List(c, &reports, func(r *report, c *binrec.Codec) { c.Str(&r.parent, &r.text) })
	binrec.List(c, &g.Snaps, func(p *Snap, c *binrec.Codec) {
		c.Str(&p.ToolUseID, &p.Intent)
		binrec.List(c, &p.Files, func(f *FileSnap, c *binrec.Codec) {
			c.Str(&f.Path)
			c.Bool(&f.Exists)
			c.Str(&f.Hash, &f.Content)
			c.Bool(&f.Kept)
		})
		c.Time(&p.Time)
	})
	// Last, and only when set: an older record reads as without them.
	if c.More(len(g.Recorded) > 0) {
		c.Strs(&g.Recorded)
	}
}
