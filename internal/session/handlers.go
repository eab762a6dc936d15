package session

import (
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
)

// Handlers are the session handlers in registration order: the engine
// keeps this order among handlers of equal priority, and it is the order
// of their context blocks. The state block after a compaction comes before
// the session context, which sizes itself to what is left of the cap; the
// health check's one line comes first of all. checks are the set-up checks
// the health check runs, outside the state lock, besides [StateCheck].
// builds says whether a handler of the kinds given is wanted: a hook
// builds only those its one event can run, a server every one.
func Handlers(opts OptionsFunc, builds engine.Filter, checks ...Check) []engine.Handler {
	hs := make([]engine.Handler, 0, 13)
	add := func(kinds []event.Kind, build func() engine.Handler) {
		if builds(kinds) {
			hs = append(hs, build())
		}
	}
	// The session start's context before the memory's: after a
	// compaction the state block takes what the start left of the memory
	// budget (the collector still puts the state block first: it is of
	// critical priority).
	// Memory (three handlers, each of its own kinds) and the phase
	// tracker are built whatever the kind; the engine skips them on the
	// events they do not want.
	add(healthKinds, func() engine.Handler { return Health(checks...) })
	add(startContextKinds, func() engine.Handler { return StartContext(opts) })
	hs = append(hs, Memory(opts)...)
	add(monitorKinds, func() engine.Handler { return Monitor(opts) })
	hs = append(hs, PhaseTracker(opts))
	add(strikesKinds, func() engine.Handler { return Strikes(opts) })
	add(todoTrackerKinds, TodoTracker)
	add(stopGateKinds, func() engine.Handler { return StopGate(opts) })
	add(verifyGateKinds, func() engine.Handler { return VerifyGate(opts) })
	return append(hs, Recorder())
}
