// Package ctxbudget counts what atreides puts before the model, per
// session and per kind, and holds each session to a budget.
//
// Every byte atreides adds to the agent's context costs the user tokens
// and the agent's attention, so it is measured where it leaves: the
// engine gives [State.Spend] the entries the collector decided an event
// carries, and the reason of a refusal or a block ([Of]). A kind is the
// entry's source ("session", "phase", "memory", "strikes", "rules", ...):
// the feature that said it, which is what a user tuning the context
// wants to switch off or shorten. The totals live in the session record
// (a group of their own, [Key]), the figures of each event on its audit
// record.
//
// A session's budget (context.budget.session) is soft where it must be:
// once it is spent, entries of high or critical priority (the guard's and
// the strikes' warnings, the held intent and state after a compaction,
// the session start) still go, since dropping them would cost more than
// the tokens; everything else is dropped, and counted as dropped, so that
// `status` shows what the budget saved.
package ctxbudget
