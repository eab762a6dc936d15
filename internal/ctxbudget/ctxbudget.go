package ctxbudget

import (
	"slices"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// Kinds of what a decision says to the model besides its context entries,
// whose kind is their source.
const (
	// KindRefusal is the reason of a tool call denied, or asked about.
	KindRefusal = "refusal"
	// KindBlock is the reason of a blocked prompt, result or stop.
	KindBlock = "block"
)

// maxKinds bounds the kinds kept per session: the sources are a small
// fixed set, so more means a bug, not a reason to grow the record.
const maxKinds = 32

// State is the group of the session record: what the session's agent was
// given, in bytes, in all and per kind.
type State struct {
	// Total is every byte put before the model in this session.
	Total int `json:"total"`
	// Dropped is the bytes left out because the budget was spent.
	Dropped int `json:"dropped"`
	// Budget is the session budget the last event applied (0: none).
	Budget int     `json:"budget"`
	Kinds  []Count `json:"kinds"` // in the order first seen
}

// Count is one kind's share.
type Count struct {
	Kind    string `json:"kind"`
	Bytes   int    `json:"bytes"`
	Times   int    `json:"times"`   // how many entries or reasons
	Dropped int    `json:"dropped"` // bytes dropped over budget
}

// Key is the group's key; its section's tag, 15, is in records on disk.
var Key = state.SessionKey[State]{Tag: 15, Name: "context budget", JSON: "context_budget", Fields: (*State).fields}

func (s *State) fields(c *binrec.Codec) {
	c.Int(&s.Total, &s.Dropped, &s.Budget)
	binrec.List(c, &s.Kinds, func(k *Count, c *binrec.Codec) {
		c.Str(&k.Kind)
		c.Int(&k.Bytes, &k.Times, &k.Dropped)
	})
}

// Spend counts the entries an event carries against budget (0: none) and
// returns those that go: all of them while the budget lasts; once it is
// spent, only those of high or critical priority. The rest are dropped
// and counted as such.
func (s *State) Spend(es []event.Entry, budget int) []event.Entry {
	s.Budget = budget
	kept := es[:0]
	for _, e := range es {
		n := len(e.Text)
		if budget > 0 && e.Priority > event.High && s.Total+n > budget {
			s.Dropped += n
			s.count(e.Source).Dropped += n
			continue
		}
		s.Add(e.Source, n)
		kept = append(kept, e)
	}
	return kept
}

// Add counts n bytes of kind put before the model.
func (s *State) Add(kind string, n int) {
	if n == 0 {
		return
	}
	s.Total += n
	c := s.count(kind)
	c.Bytes += n
	c.Times++
}

// count is kind's share, added when new (the last share takes what is
// past maxKinds).
func (s *State) count(kind string) *Count {
	i := slices.IndexFunc(s.Kinds, func(c Count) bool { return c.Kind == kind })
	switch {
	case i >= 0:
	case len(s.Kinds) < maxKinds:
		s.Kinds = append(s.Kinds, Count{Kind: kind})
		i = len(s.Kinds) - 1
	default:
		i = len(s.Kinds) - 1
	}
	return &s.Kinds[i]
}

// Counted reports whether what ev carries is counted: not on the session
// start OpenCode's adapter makes of every model request (Source
// "prompt"), whose system prompt repeats the standing context the model
// already has, request after request; counting it each time would spend
// the budget on nothing new (and it is not audited either).
func Counted(ev *event.Event) bool { return ev.Kind != event.SessionStart || ev.Starts() }

// Reasons are the kinds and texts of what d says to the model besides its
// context: the reason of a refusal and of a block.
func Reasons(d *event.Decision) (refusal, block string) {
	if d.Verdict == event.Deny || d.Verdict == event.Ask {
		refusal = d.Reason
	}
	if d.Block {
		block = d.BlockReason
	}
	return refusal, block
}

// Of is what one delivered decision put before the model, in bytes per
// kind; nil when nothing. The audit record keeps it.
func Of(d *event.Decision) map[string]int {
	var m map[string]int
	add := func(kind string, n int) {
		if n == 0 {
			return
		}
		if m == nil {
			m = map[string]int{}
		}
		m[kind] += n
	}
	for _, e := range d.Context {
		add(e.Source, len(e.Text))
	}
	refusal, block := Reasons(d)
	add(KindRefusal, len(refusal))
	add(KindBlock, len(block))
	return m
}
