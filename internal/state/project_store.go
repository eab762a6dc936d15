package state

import (
	"context"

	"github.com/atreides-dev/atreides/internal/store"
)

// ReadProject is the project record of st, read in a transaction of its
// own, for a caller that needs nothing else from the store.
func ReadProject(ctx context.Context, st *store.Store) (*Project, error) {
	var p *Project
	err := st.View(ctx, func(tx *store.Tx) error {
		var err error
		p, err = LoadProject(tx)
		return err
	})
	return p, err
}

// UpdateProjectIn runs fn on the project record of st and saves it, in one
// locked transaction of its own (UpdateProject).
func UpdateProjectIn(ctx context.Context, st *store.Store, fn func(*Project) error) error {
	return st.Update(ctx, func(tx *store.Tx) error { return UpdateProject(tx, fn) })
}
