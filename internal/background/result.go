package background

import (
	"os"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/bgtasks"
)

// PathEnv and TaskEnv name, in a task's CLI environment, its chain of
// background agents (comma-separated, its own last) and its id, so that a
// task launched from inside it nests one deeper.
const (
	PathEnv = "ATREIDES_BG_PATH"
	TaskEnv = "ATREIDES_BG_TASK"
)

// ResultOf is a task's whole answer: result.md, else the summary kept in
// the registry.
func ResultOf(root string, t *bgtasks.Task) string {
	if b, err := os.ReadFile(filepath.Join(Dir(root, t.ID), "result.md")); err == nil {
		return string(b)
	}
	return t.Result
}
