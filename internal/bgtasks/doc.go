// Package bgtasks holds the background tasks' group of the project
// record: the tasks launched, queued, running and ended, and the next id.
// Package background owns their rules (queueing, concurrency, completion
// and notification) and changes them; the engine's marks, the agent tools,
// the guard and the read model read them. It imports only the record
// machinery (state, binrec), so that the engine, which the handlers
// import, can read it too.
package bgtasks
