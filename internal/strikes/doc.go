// Package strikes holds the strike counter's group of the session
// record: consecutive failures of one tool on one target, with their
// recent errors. The strike handler (package session) counts them and
// escalates; the engine's marks, compaction snapshots and the read model
// read them. It imports only the record machinery (state, binrec), so
// that the engine, which the handlers import, can read it too.
package strikes
