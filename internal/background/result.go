package background

import (
	"os"
	"path/filepath"
)

// PathEnv and TaskEnv name, in a task's CLI environment, its chain of
// background agents (comma-separated, its own last) and its id, so that a
// task launched from inside it nests one deeper.
const (
	PathEnv = "ATREIDES_BG_PATH"
	TaskEnv = "ATREIDES_BG_TASK"
	// ModelEnv is the model a task runs on ("" for the CLI's default), so
	// a task it launches inherits it (the parent's model).
	ModelEnv = "ATREIDES_BG_MODEL"
)

// ResultOf is the whole answer of task id: its result.md, else stored,
// the summary the registry keeps.
func ResultOf(root, id, stored string) string {
	if b, err := os.ReadFile(filepath.Join(Dir(root, id), "result.md")); err == nil {
		return string(b)
	}
	return stored
}
