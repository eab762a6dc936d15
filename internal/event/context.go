package event

import (
	"hash/fnv"
	"strconv"
	"strings"
)

// Priority ranks what matters most: handlers run in this order (the engine's
// handler priority is this type) and context entries are delivered, and
// trimmed to a host's cap, in this order.
type Priority int

// Priorities, from first to last.
const (
	Critical Priority = iota
	High
	Normal
	Low
)

func (p Priority) String() string {
	if p < Critical || p > Low {
		return "low"
	}
	return [...]string{"critical", "high", "normal", "low"}[p]
}

// Entry is one piece of context a handler registers for the agent. The
// engine's collector dedupes entries by [Entry.Key] (a later entry's text
// replaces an earlier one's), orders them by priority and then by when
// they were registered, and delivers each once: with the event that
// registered it when the host lets that event carry context and there is
// room, else with the next event of the same agent that can. An entry is
// never cut: one that does not fit waits for the next carrier.
type Entry struct {
	// Source is the feature that registered it ("rules", "keyword",
	// "strikes"); ID tells its entries apart ("" for a one-off).
	Source, ID string
	Priority   Priority
	Text       string
	// Once entries are delivered at most once per session: a key already
	// delivered is dropped. A compaction forgets what was delivered, since
	// the agent's context no longer holds it.
	Once bool
	// Standing context (who the agent is, the project's rules) is decided
	// afresh at every session start; a host that rebuilds its system
	// prompt for every model request (OpenCode) carries it there, and the
	// rest in the conversation.
	Standing bool
}

// Key is what entries are deduplicated by.
func (e Entry) Key() string { return e.Source + ":" + e.ID }

// Note is the context of a handler that registers one entry, or none when
// text is empty.
func Note(source, id string, p Priority, text string) []Entry {
	if text == "" {
		return nil
	}
	return []Entry{{Source: source, ID: id, Priority: p, Text: text}}
}

// Message is an entry keyed by its text: two messages of a source are
// kept apart unless they say the same thing, which is said once.
func Message(source string, p Priority, text string) []Entry {
	if text == "" {
		return nil
	}
	h := fnv.New64a()
	h.Write([]byte(text))
	return []Entry{{Source: source, ID: strconv.FormatUint(h.Sum64(), 36), Priority: p, Text: text}}
}

// JoinEntries joins the entries' texts, separated by blank lines.
func JoinEntries(es []Entry) string {
	parts := make([]string, 0, len(es))
	for _, e := range es {
		if e.Text != "" {
			parts = append(parts, e.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}
