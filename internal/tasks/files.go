package tasks

import (
	"time"

	"github.com/atreides-dev/atreides/internal/state"
)

// writeFiles generates TODO.md, state.json and errors.json from the board
// and writes them together; it records the outcome in b.Files.
// (Placeholder: the generation lands with the files change.)
func (r *Repo) writeFiles(b *state.Tasks, now time.Time) {
	b.Files.Gen, b.Files.Written = b.Gen, now
}
