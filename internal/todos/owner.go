package todos

import "github.com/atreides-dev/atreides/internal/state"

// A todo is one session's checklist item (docs/work-items.md): the
// session that added it (Todo.Session) is the one it holds, and only
// that session's stop waits for it. A todo added by a person at a
// terminal, or written by an atreides before this rule (which stamped no
// session on the command line's todos), belongs to no session: it is a
// note on the project that every list shows and no agent is held to.
// Project work that must be done by someone is a task on the board.

// Owned reports whether the todo is on session's checklist.
func (t Todo) Owned(session string) bool {
	return session != "" && t.Session == session
}

// Held returns the open todos that hold session's stop: its own, added
// in this checkout (another checkout's todo is another party's, even in a
// team's shared store), in id order.
func (g *Todos) Held(p *state.Project, session string) []Todo {
	var out []Todo
	for _, t := range g.List {
		if t.Open() && t.Owned(session) && p.Elsewhere(t.Origin) == "" {
			out = append(out, t)
		}
	}
	return out
}

// Finished counts session's todos that are done or cancelled: the stop
// gate's measure of progress.
func (g *Todos) Finished(session string) int {
	n := 0
	for _, t := range g.List {
		if !t.Open() && t.Owned(session) {
			n++
		}
	}
	return n
}

// Shown returns the open todos a session's agent is told of at its
// start: its own and those on no session's checklist (a person's notes),
// in id order. Another session's checklist is that session's work: its
// agent is on it, and telling this one would only invite doing it twice.
func (g *Todos) Shown(session string) []Todo {
	var out []Todo
	for _, t := range g.List {
		if t.Open() && (t.Session == "" || t.Owned(session)) {
			out = append(out, t)
		}
	}
	return out
}
