package anchors

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// Anchors is the project's anchors, oldest first, and the number of the
// last one added. In JSON (older records) they are members of the
// project's own object, as they always were.
type Anchors struct {
	Next int      `json:"next_anchor,omitempty"`
	List []Anchor `json:"anchors,omitempty"`
}

// Anchor kinds.
const (
	Decision   = "decision"
	Constraint = "constraint"
	Fact       = "fact"
)

// Anchor is a piece of knowledge that must survive compaction: a decision,
// a constraint or a fact, with a priority and the time it was made.
type Anchor struct {
	ID       int       `json:"id"`
	Kind     string    `json:"kind"`
	Priority string    `json:"priority"`
	Text     string    `json:"text"`
	Session  string    `json:"session,omitempty"`
	Created  time.Time `json:"created"`
	// Target is what the anchor is about, when it is about one thing:
	// "task 12", "task 12 phase 2", "file internal/x.go", "agent oracle".
	// The compaction memory ranks an anchor about the task in progress,
	// or one near it, above the others.
	Target string `json:"target,omitempty"`
	// Origin is the checkout that added it, in a team's store (the zero
	// Origin elsewhere).
	Origin store.Origin `json:"origin,omitzero"`
}

// ParseKind checks an anchor kind.
func ParseKind(s string) (string, error) {
	switch k := strings.ToLower(strings.TrimSpace(s)); k {
	case Decision, Constraint, Fact:
		return k, nil
	case "":
		return Fact, nil
	}
	return "", fmt.Errorf("kind %q is not one of decision, constraint, fact", s)
}

// Max bounds the anchors a project keeps; the oldest non-critical
// anchor is dropped first.
const Max = 200

// maxAnchorText bounds one anchor's text.
const maxAnchorText = 1000

// Add records an anchor in the project and returns it, stamped with
// where the record is written ([state.Project.Here]).
func Add(p *state.Project, kind, priority, text, session string, now time.Time) (Anchor, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Anchor{}, fmt.Errorf("an anchor needs text")
	}
	if len(text) > maxAnchorText {
		return Anchor{}, fmt.Errorf("an anchor is at most %d bytes (got %d); keep it to one decision or fact", maxAnchorText, len(text))
	}
	k, err := ParseKind(kind)
	if err != nil {
		return Anchor{}, err
	}
	pr, err := ParsePriority(priority)
	if err != nil {
		return Anchor{}, err
	}
	g := Key.Of(p)
	for _, a := range g.List {
		if a.Text == text && a.Kind == k {
			// The same fact twice is noise; keep the first, with its age.
			return a, nil
		}
	}
	if len(g.List) >= Max {
		drop := -1
		for i, a := range g.List {
			if a.Priority != Critical {
				drop = i
				break
			}
		}
		if drop < 0 {
			drop = 0
		}
		g.List = append(g.List[:drop], g.List[drop+1:]...)
	}
	g.Next++
	a := Anchor{ID: g.Next, Kind: k, Priority: pr, Text: text, Session: session, Created: now, Origin: p.Here()}
	g.List = append(g.List, a)
	return a, nil
}

// Remove forgets an anchor.
func (g *Anchors) Remove(id int) error {
	for i := range g.List {
		if g.List[i].ID == id {
			g.List = append(g.List[:i], g.List[i+1:]...)
			return nil
		}
	}
	return fmt.Errorf("no anchor #%d", id)
}

// Salvaged implements [state.Salvager]: the counter is raised past the
// anchors kept.
func (g *Anchors) Salvaged() {
	for _, a := range g.List {
		g.Next = max(g.Next, a.ID)
	}
}

// Key is the group's key. Its section's tag, 2, is in records on disk,
// and so is that of the origins, 7, which came later in a section of
// their own so that an older atreides keeps them as a newer build's group
// instead of finding bytes it does not know in its anchors.
var Key = state.ProjectKey[Anchors]{Tag: 2, Name: "anchors", JSON: "", Fields: (*Anchors).fields,
	More: []state.Section[Anchors]{
		{Tag: 7, Name: "anchor origins", Fields: func(g *Anchors, c *binrec.Codec) {
			state.CodeOrigins(c, g.List, func(a *Anchor) (int, *store.Origin) { return a.ID, &a.Origin })
		}},
	}}

func (g *Anchors) fields(c *binrec.Codec) {
	c.Int(&g.Next)
	binrec.List(c, &g.List, func(a *Anchor, c *binrec.Codec) {
		c.Int(&a.ID)
		c.Str(&a.Kind, &a.Priority, &a.Text, &a.Session)
		c.Time(&a.Created)
	})
	// The targets came later: they follow the list, one per anchor, and
	// only when one is set, so that a record without any is byte for byte
	// what it was and an older record reads as targets all empty.
	if c.More(slices.ContainsFunc(g.List, func(a Anchor) bool { return a.Target != "" })) {
		binrec.Each(c, g.List, func(a *Anchor, c *binrec.Codec) { c.Str(&a.Target) })
	}
}
