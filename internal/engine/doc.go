// Package engine runs the handlers registered for an event in priority
// order, merges what they say into one [event.Decision], and keeps one
// failing handler from taking the others down: a failing critical handler
// becomes a deny, any other failure is logged and skipped. It times each
// handler that runs ([event.Decision.Timings]) with one clock reading
// before and after, so the audit trail can say where an event's time went.
//
// Handlers register context entries rather than write to the host; after
// they ran, the engine hands the entries to package collector, which
// decides what this event carries (its ContextCap, set by the host's
// adapter) and keeps the rest in the session for the next carrier.
//
// What an event changed in the session's story (a phase transition, a
// strike, a todo closed) is found by comparing the state before and after
// the handlers (package marks) and attached to the decision as its Marks,
// for the audit trail; the handlers do nothing for it. A run on a state
// that could not be loaded has none.
//
// Handlers never touch the store: the engine's [StoreLoader] loads the
// session and project records once per event through package state (which
// owns them), hands them to the handlers, and saves them once, in one
// locked transaction.
package engine
