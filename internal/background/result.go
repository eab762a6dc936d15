package background

import (
	"os"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/state"
)

// DepthEnv and TaskEnv name, in a task's CLI environment, its nesting
// and its id, so that a task launched from inside it nests one deeper.
const (
	DepthEnv = "ATREIDES_BG_DEPTH"
	TaskEnv  = "ATREIDES_BG_TASK"
)

// ResultOf is a task's whole answer: result.md, else the summary kept in
// the registry.
func ResultOf(root string, t *state.BgTask) string {
	if b, err := os.ReadFile(filepath.Join(Dir(root, t.ID), "result.md")); err == nil {
		return string(b)
	}
	return t.Result
}
