package anchors

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// Placed is the context atreides placed into conversations, a record of
// its own beside the project record: on a host that does not keep what a
// plugin adds to a request (OpenCode's messages transform), the plugin
// adds each piece again, at the same message, to every later request, and
// this is the list it is told, so that a restarted server (or another
// one) goes on adding what the model was already shown. Not the
// project's anchors above, which are knowledge; these are delivered text
// pinned to a place. Least recently used conversation first.
type Placed struct {
	Sessions []PlacedSession `json:"sessions,omitempty"`
}

// PlacedSession is the context placed in one conversation (a session, or
// a child session of a subagent), oldest first.
type PlacedSession struct {
	Key  string     `json:"key"`
	Seen time.Time  `json:"seen"`
	List []PlacedAt `json:"list,omitempty"`
}

// PlacedAt is one piece of context and its place: the message it is
// added to, the id of the part it is added as, and the entry it came
// from (source:id).
type PlacedAt struct {
	Message string `json:"message"`
	Part    string `json:"part"`
	Entry   string `json:"entry"`
	Text    string `json:"text"`
}

// Bounds of the record: the conversations kept, and their text in all;
// the least recently seen conversation goes first.
const (
	MaxPlacedSessions = 32
	MaxPlacedBytes    = 512 << 10
)

// Of returns the context placed in the conversation.
func (g *Placed) Of(key string) []PlacedAt {
	for _, s := range g.Sessions {
		if s.Key == key {
			return s.List
		}
	}
	return nil
}

// Set replaces the context placed in the conversation (nil forgets it)
// and keeps the record within its bounds.
func (g *Placed) Set(key string, list []PlacedAt, now time.Time) {
	g.Sessions = slices.DeleteFunc(g.Sessions, func(s PlacedSession) bool { return s.Key == key })
	if len(list) > 0 {
		g.Sessions = append(g.Sessions, PlacedSession{Key: key, Seen: now, List: list})
	}
	size := 0
	for _, s := range g.Sessions {
		for _, p := range s.List {
			size += len(p.Text)
		}
	}
	for len(g.Sessions) > 1 && (len(g.Sessions) > MaxPlacedSessions || size > MaxPlacedBytes) {
		for _, p := range g.Sessions[0].List {
			size -= len(p.Text)
		}
		g.Sessions = g.Sessions[1:]
	}
}

// PlacedKey is the record's key: "placed", fixed forever.
var PlacedKey = state.RecordKey[Placed]{Index: 0, Name: "placed", What: "placed context", Kind: 'P', Version: 1, Fields: (*Placed).fields}

func (g *Placed) fields(c *binrec.Codec) {
	binrec.List(c, &g.Sessions, func(s *PlacedSession, c *binrec.Codec) {
		c.Str(&s.Key)
		c.Time(&s.Seen)
		binrec.List(c, &s.List, func(p *PlacedAt, c *binrec.Codec) {
			c.Str(&p.Message, &p.Part, &p.Entry, &p.Text)
		})
	})
}
