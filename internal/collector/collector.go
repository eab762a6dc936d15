package collector

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/atreides-dev/atreides/internal/event"
)

// sepLen is the blank line between two delivered entries.
const sepLen = 2

// cutNote ends an entry that was cut because it alone exceeds a cap.
const cutNote = "\n[atreides: cut to fit the host's context cap]"

// candidate is an entry on its way: where it came from decides whether it
// leaves the pending list when delivered.
type candidate struct {
	event.Entry
	at time.Time // registration time
}

// Result is what [Deliver] decided.
type Result struct {
	// Carried is what the event carries, in delivery order.
	Carried []event.Entry
	// Dropped counts entries dropped because the waiting list was full:
	// the engine logs it.
	Dropped int
	// Cut is set when an entry longer than the whole cap was cut.
	Cut bool
}

// Deliver decides what an event of agent (the subagent's id, "" for the
// lead agent) carries: fresh is what its handlers registered, in order;
// cs is the session's context state, updated in place; budget is the
// event's context cap (0: the event carries nothing, all of it waits).
func Deliver(cs *State, agent string, fresh []event.Entry, budget int, now time.Time) Result {
	var cands []candidate
	var rest []PendingEntry // other agents' entries stay as they are
	for _, p := range cs.Pending {
		if p.Agent != agent {
			rest = append(rest, p)
			continue
		}
		cands = merge(cands, candidate{event.Entry{Source: p.Source, ID: p.ID, Priority: event.Priority(p.Priority), Text: p.Text, Once: p.Once}, p.Time})
	}
	for _, e := range fresh {
		cands = merge(cands, candidate{e, now})
	}
	cands = slices.DeleteFunc(cands, func(c candidate) bool { return c.Text == "" || c.Once && cs.WasDelivered(onceKey(agent, c.Entry)) })
	slices.SortStableFunc(cands, func(a, b candidate) int { return int(a.Priority) - int(b.Priority) })

	var r Result
	cs.Pending = rest
	used := 0
	for _, c := range cands {
		fits := budget > 0 && used+sep(used)+len(c.Text) <= budget
		if !fits && used == 0 && budget > len(cutNote)+sepLen && len(c.Text) > budget {
			// Alone too long for any carrier of this host: it would
			// wait for ever, so it goes now, cut at a line.
			c.Text, fits, r.Cut = cutAtLine(c.Text, budget-len(cutNote))+cutNote, true, true
		}
		if !fits && c.Standing && budget > 0 {
			// Decided afresh at the next session start: a copy would be
			// stale. On an event that carries nothing (a host that does
			// not read its session start's answer: Cline) it waits for
			// the first event that carries, or it would never arrive.
			continue
		}
		if !fits {
			r.Dropped += cs.Queue(PendingEntry{Agent: agent, Source: c.Source, ID: c.ID, Priority: int(c.Priority), Text: c.Text, Once: c.Once, Time: c.at})
			continue
		}
		used += sep(used) + len(c.Text)
		r.Carried = append(r.Carried, c.Entry)
		if c.Once {
			cs.MarkDelivered(onceKey(agent, c.Entry))
		}
	}
	return r
}

// onceKey is what a once-only entry is remembered by: each agent has its
// own context, so a subagent that read a directory's rules has not put
// them into the lead agent's.
func onceKey(agent string, e event.Entry) string {
	if agent == "" {
		return e.Key()
	}
	return agent + "/" + e.Key()
}

// Delivered reports whether the once-only entry e was delivered to agent
// in this session (since the last compaction), so that a handler can leave
// out what the agent already has before it sizes what it registers.
func Delivered(cs *State, agent string, e event.Entry) bool {
	return cs.WasDelivered(onceKey(agent, e))
}

// merge adds c, or puts its text in place of an earlier entry's with the
// same key (which keeps its place and the stronger of the two priorities).
func merge(cands []candidate, c candidate) []candidate {
	i := slices.IndexFunc(cands, func(o candidate) bool { return o.Key() == c.Key() })
	if i < 0 {
		return append(cands, c)
	}
	o := &cands[i]
	o.Text, o.Once, o.Standing = c.Text, c.Once, c.Standing
	o.Priority = min(o.Priority, c.Priority)
	return cands
}

func sep(used int) int {
	if used == 0 {
		return 0
	}
	return sepLen
}

// cutAtLine shortens s to at most n bytes, at the last line break if there
// is one, else at a rune boundary.
func cutAtLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		return s[:i]
	}
	return s
}

// Forget clears what was delivered once, after a compaction: the agent's
// context no longer holds it, so once-only entries may come again.
func Forget(cs *State) { cs.Delivered = nil }

// DropAgent forgets a subagent that has stopped: what waits for it (no
// event of it will come to carry it) and what it was given once.
func DropAgent(cs *State, agent string) {
	if agent == "" {
		return
	}
	cs.Pending = slices.DeleteFunc(cs.Pending, func(p PendingEntry) bool { return p.Agent == agent })
	cs.Delivered = slices.DeleteFunc(cs.Delivered, func(k string) bool { return strings.HasPrefix(k, agent+"/") })
}
