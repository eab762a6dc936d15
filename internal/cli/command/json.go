package command

import (
	"encoding/json"
)

// What --json prints is a contract with scripts, documented in
// docs/json.md; each command declares its document's type beside it. They
// are not the stored records: a key is snake_case, always present (no
// omitempty), and a list is [] when empty, so a document has one shape
// whether it holds anything or not.

// PrintJSON writes v as indented JSON: every --json document goes
// through here.
func PrintJSON(io *IO, v any) error {
	enc := json.NewEncoder(io.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
