package cli

import (
	"encoding/json"
)

// The types in this file are what --json prints: a contract with scripts,
// documented in docs/json.md. They are not the stored records: a key is
// snake_case, always present (no omitempty), and a list is [] when
// empty, so a document has one shape whether it holds anything or not.

// printJSON writes v as indented JSON: every --json document goes
// through here.
func printJSON(io *IO, v any) error {
	enc := json.NewEncoder(io.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
