package state

import (
	"cmp"
	"slices"
)

// Ids are shown by their start, as git shows hashes: one place decides
// how long that start is, for the CLI's tables, atreides top and doctor.

// ShortIDLen is how much of an id the lists show: enough to tell a
// project's sessions apart, short enough for a table's column.
const ShortIDLen = 8

// ShortID is the start of an id as lists show it, n characters long (0:
// the usual length, ShortIDLen); the CLI's commands that take the id take
// this start too (command.ResolveID).
func ShortID(id string, n int) string {
	n = cmp.Or(n, ShortIDLen)
	if len(id) > n {
		return id[:n]
	}
	return id
}

// ShortLen is the length at which ids are shown short: ShortIDLen, or more
// where two of them share their first ShortIDLen characters, so that every
// short id a list shows names one id.
func ShortLen(ids []string) int {
	n := ShortIDLen
	sorted := slices.Sorted(slices.Values(ids))
	for i := 1; i < len(sorted); i++ {
		a, b := sorted[i-1], sorted[i]
		if a == b {
			continue
		}
		c := 0
		for c < len(a) && c < len(b) && a[c] == b[c] {
			c++
		}
		n = max(n, c+1)
	}
	return n
}
