package doctor

import (
	"context"
	"fmt"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"os"
	"strings"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// routingCheck is doctor's note on routes to agents the roster lacks in
// the configuration c; nil when there is none (or c is nil, the
// configuration invalid: configCheck says so).
func routingCheck(c *config.Config) *Check {
	if c == nil {
		return nil
	}
	p := tasks.RouteOptionsFromConfig(c).Missing(c)
	if len(p) == 0 {
		return nil
	}
	return &Check{Name: "task routing", Status: "note", Detail: strings.Join(p, "; ")}
}

// taskFileChecks are doctor's lines on the task files of the project at
// root with the configuration c: one per problem, or one saying they are
// in sync. Doctor only looks; it repairs nothing.
func taskFileChecks(root string, c *config.Config) []Check {
	r := tasks.Open(root, tasks.FromConfig(c))
	if _, err := os.Stat(r.Store.Path()); err != nil {
		return nil // no state yet, so no tasks
	}
	var out []Check
	err := r.View(context.Background(), func(b *taskboard.Tasks) error {
		if b.Gen == 0 {
			return nil
		}
		for _, p := range r.Check(b) {
			status := "problem"
			if p.Kind == tasks.Backups || p.Kind == tasks.Unfinished {
				status = "note"
			}
			out = append(out, Check{Name: "task files", Status: status, Detail: p.Text})
		}
		if len(out) == 0 {
			out = append(out, Check{Name: "task files", Status: "ok", Detail: fmt.Sprintf("%s: generation %d, as the store generates them", r.SpecsDir(), b.Gen)})
		}
		return nil
	})
	if err != nil {
		return []Check{{Name: "task files", Status: "problem", Detail: err.Error()}}
	}
	return out
}
