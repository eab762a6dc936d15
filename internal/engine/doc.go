// Package engine runs the handlers registered for an event in priority
// order, merges what they say into one [event.Decision], and keeps one
// failing handler from taking the others down: a failing critical handler
// becomes a deny, any other failure is logged and skipped. It times each
// handler that runs ([event.Decision.Timings]) with one clock reading
// before and after, so the audit trail can say where an event's time went.
//
// The engine is the only part that touches session state: it loads it once
// per event, hands it to the handlers, and saves it once.
package engine
