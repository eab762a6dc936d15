package session

import "github.com/atreides-dev/atreides/internal/engine"

// Handlers are the session handlers in registration order: the engine
// keeps this order among handlers of equal priority, and it is the order
// of their context blocks. The state block after a compaction comes before
// the session context, which sizes itself to what is left of the cap; the
// health check's one line comes first of all. checks are the set-up checks
// the health check runs, outside the state lock, besides [StateCheck].
func Handlers(opts OptionsFunc, checks ...Check) []engine.Handler {
	// The session start's context before the memory's: after a
	// compaction the state block takes what the start left of the memory
	// budget (the collector still puts the state block first: it is of
	// critical priority).
	hs := []engine.Handler{Health(checks...), StartContext(opts)}
	hs = append(hs, Memory(opts)...)
	return append(hs,
		Monitor(opts),
		PhaseTracker(opts),
		Strikes(opts),
		TodoTracker(),
		StopGate(opts),
		VerifyGate(opts),
		Recorder(),
	)
}
