// Package binrec holds the primitives of atreides's compact binary
// records: varints, strings, times, and counted lists, written by
// appending to a byte slice and read back from one string whose first
// error sticks, so a codec reads field after field and checks once at the
// end. Nothing a Reader reads can make it allocate more than the record's
// own length: every count is checked against the bytes left. A [Codec]
// lets a type list its fields once for both directions. The state
// records (package state) and the configuration cache (package config)
// are written with it.
package binrec
