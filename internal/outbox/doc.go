// Package outbox keeps the hook events whose changes to a project's state
// could not be saved, because the store could not be reached (the team's
// database is down) or did not answer within the hook's budget, and gives
// them back in the order they came, for the next hook that reaches the
// store to apply (engine.Replay).
//
// Why: a hook answers whether or not its state is saved (security
// decisions need no store; governance fails closed without it), and an
// event whose changes are dropped is a hole in the session's history
// (strikes not counted, todos lost, a phase never entered) that no later
// event fills. Queued and replayed in order, the state ends as it would
// have without the outage.
//
// # Files
//
// .atreides/outbox/<time>-<id>.json, one per event: the event as the
// engine saw it, what the host was told, why it was queued, and the
// event's id. The name starts with the event's time in nanoseconds, zero
// padded, so the names sort in the order the events came on this machine.
// Each is written to a temporary file, synced, and renamed into place, so
// an entry is whole or absent; an entry that does not decode (written by
// a newer atreides) is renamed to <name>.unreadable and skipped, never
// allowed to stop the queue. The directory is not committed (the store's
// .gitignore): entries hold prompts and tool output, like the state.
//
// # Replaying, once
//
// [Replay] takes the outbox's lock (.atreides/outbox/lock, so two hooks
// never replay the same entry at once), hands the entries to the caller
// oldest first, and removes each once the caller saved it; it stops at
// the first the caller cannot save. A hook that finds entries waiting
// replays them before its own event, and queues its own event behind any
// that remain, so the order holds. An entry applied whose removal did not
// happen (the process was killed between the two) is applied again by the
// next replay; the caller makes that harmless: the session remembers the
// ids of its last events (engine.Applied) and an event it
// remembers is not applied twice.
package outbox
