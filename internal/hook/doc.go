// Package hook is atreides's runtime: what runs on every event an agent
// host sends, as a hook process ('atreides hook', [Answer]) or as the
// server a host plugin talks to ('atreides serve', [NewServer]).
//
// It decodes the event with the host's adapter, loads the project's
// [Settings] (the configuration and the guard policy, each on first use:
// an event that needs neither parses nothing, and with no config file the
// built-in configuration is a Go value), runs the one ordered list of
// handlers through the engine, and then the after-steps: the audit trail,
// the span spool, the export at a session's end, the outbox of events a
// team store could not take, and the hand-over to atreides-team for a
// store this binary does not link. A watchdog answers for a hook process
// still working when its budget ends. The command line (package cli) only
// parses flags and hands over its streams as a [Process].
package hook
