package subagents

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// Links are the child sessions of the project's sessions, a group of the
// project record: where a host runs a subagent as a session of its own
// (OpenCode's task tool creates a child session with a parentID), its
// events name only that session, and this is how a later event, in the
// same serve process or after a restart, finds the session whose record
// keeps the delegation tree. Newest last.
type Links struct {
	List []Link `json:"list,omitempty"`
}

// Link is one child session: the session the host says created it
// (Parent), the top of its chain (Root, whose record keeps the subagent
// registry), and the agent it runs as.
type Link struct {
	Child  string    `json:"child"`
	Parent string    `json:"parent"`
	Root   string    `json:"root"`
	Agent  string    `json:"agent,omitempty"`
	Time   time.Time `json:"t"`
}

// MaxLinks bounds the links kept; the oldest goes first. A child whose
// link was dropped is seen as a session of its own again, which costs
// its limits, never its guard: 64 is far more subagents than run at once.
const MaxLinks = 64

// Find returns the link of a child session.
func (g *Links) Find(child string) (Link, bool) {
	for i := len(g.List) - 1; i >= 0; i-- {
		if g.List[i].Child == child {
			return g.List[i], true
		}
	}
	return Link{}, false
}

// Add records l, replacing an older link of the same child, within
// [MaxLinks].
func (g *Links) Add(l Link) {
	g.List = slices.DeleteFunc(g.List, func(x Link) bool { return x.Child == l.Child })
	g.List = append(g.List, l)
	if over := len(g.List) - MaxLinks; over > 0 {
		g.List = slices.Delete(g.List, 0, over)
	}
}

// RootOf is the top of the chain a session created with the parent
// belongs to: the parent's own root when the parent is a child (found),
// else the parent.
func RootOf(parent string, find func(id string) (Link, bool)) string {
	if l, ok := find(parent); ok && l.Root != "" {
		return l.Root
	}
	return parent
}

// LinksKey is the links' key; its section's tag, 11, is in records on
// disk.
var LinksKey = state.ProjectKey[Links]{Tag: 11, Name: "session links", JSON: "session_links", Fields: (*Links).fields}

func (g *Links) fields(c *binrec.Codec) {
	binrec.List(c, &g.List, func(l *Link, c *binrec.Codec) {
		c.Str(&l.Child, &l.Parent, &l.Root, &l.Agent)
		c.Time(&l.Time)
	})
}
