// Package event defines the host-neutral language of atreides: the [Event]
// a host adapter decodes from its host's hook payload, the [Result] each
// handler answers with, and the merged [Decision] the adapter encodes back.
//
// Nothing here does I/O; adapters, the engine and handlers all speak it.
package event
