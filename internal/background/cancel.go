package background

import (
	"context"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/state"
)

// Cancel cancels the tasks ids (stopping a running one's process) in one
// transaction: all of them, or none when one cannot be. `atreides bg
// cancel` and the dashboard's Cancel button both call it.
func (r *Registry) Cancel(ctx context.Context, ids ...string) error {
	return r.Update(ctx, func(p *state.Project, now time.Time) error {
		for _, id := range ids {
			if err := CancelTask(bgtasks.Key.Of(p), id, now, r.Alive); err != nil {
				return err
			}
		}
		return nil
	})
}
