package governance

import (
	"context"

	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// Release drops the intent lease the session holds in the project at
// root, in one store transaction, and returns the intent it held ("" when
// it held none). `atreides intent release` and the dashboard's Release
// button both call it, so the two cannot drift apart.
func Release(ctx context.Context, root, session string) (released string, err error) {
	st := fleet.OpenLogged(root)
	err = st.Update(ctx, func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			released = ""
			g := govstate.Key.Of(p)
			if l := g.HeldBy(session); l != nil {
				released = l.Intent
			}
			g.Release(session)
			return nil
		})
	})
	return released, err
}
