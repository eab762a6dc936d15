// Package marks says what one event changed in a session's story: the
// phase transitions, strikes and escalations, todos opened and closed,
// failed tool calls, compactions, delegations and background tasks that
// a session's timeline shows ([event.Mark]). The session state keeps only
// bounded current views (a fixed strike is forgotten, an agent todo has
// no time), so the engine attaches an event's marks to its decision and
// the audit trail keeps them: the trail is the session's history.
//
// They are computed in one place, from the state, not by the handlers
// that change it: [Take] summarizes the state before an event's handlers
// run and [Diff] compares the state after with it. The summary runs on
// every hook under the state lock, so it is cheap: counters, the phase,
// and a few id and status pairs of the groups loaded for the event (one
// allocation), never a copy of the history. A group not loaded for the
// event cannot have changed, so it is not looked at.
//
// What changes outside a hook (a todo added through an agent tool, a
// background task ended by its supervisor) is not an event's mark; it
// shows up on the timeline through the next event that sees it, if any
// (a background task's end is noticed by a hook).
package marks
