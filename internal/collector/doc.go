// Package collector decides what context one event carries to the agent.
//
// Handlers register context entries ([event.Entry]: a source, an id, a
// priority, a text) instead of writing to the host. The collector merges
// the entries of the event with those still waiting in the session
// ([State], its group of the session record), drops duplicates by
// source:id (the newest text wins, the oldest place is kept) and once-only
// entries already delivered,
// orders them by priority and then by registration, and fills the event's
// context cap with whole entries. What does not fit, and everything
// registered on an event the host does not put into the agent's context
// (a Stop, a PreCompact, a background process), waits in the session for
// the next event of the same agent that can carry it, so it is delivered
// once, by whichever hook process comes next.
//
// It is pure: the engine calls it with the loaded state and saves it.
package collector
