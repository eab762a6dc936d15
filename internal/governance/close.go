package governance

import (
	"context"

	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/state"
)

// Close marks the intent id of the project at root done (cancelled with
// cancel) and releases the lease any session holds on it: a closed intent
// is held by nobody. It returns the status it set.
func Close(ctx context.Context, root, id string, cancel bool) (status string, err error) {
	status = intent.Done
	if cancel {
		status = intent.Cancelled
	}
	if err := intent.SetStatus(IntentsPath(root), id, status); err != nil {
		return "", err
	}
	st := fleet.OpenLogged(root)
	err = state.UpdateProjectIn(ctx, st, func(p *state.Project) error {
		g := govstate.Key.Of(p)
		if l := g.Lock(id); l != nil {
			g.Release(l.Session)
		}
		return nil
	})
	return status, err
}
