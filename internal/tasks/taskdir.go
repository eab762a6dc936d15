package tasks

import (
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/taskboard"
)

// TaskDir is the task's directory, where its plans, reports and reviews
// go: relative to the project root when the specs directory is inside
// it (see taskDir for which directory).
func (r *Repo) TaskDir(t *taskboard.Task) string {
	specs := r.relSpecs()
	return filepath.Join(specs, taskDir(specs, t))
}
