package agenttools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// parse reads a call's arguments into in: one JSON object, with every
// required argument present and no unknown one, as the schemas say
// (additionalProperties false). A misspelt argument is an error the model
// can correct, not one silently ignored.
func parse(args json.RawMessage, in any, required ...string) error {
	if t := bytes.TrimSpace(args); len(t) == 0 || string(t) == "null" {
		args = json.RawMessage(`{}`)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	for _, n := range required {
		if v, ok := m[n]; !ok || string(v) == "null" {
			return fmt.Errorf("invalid arguments: %q is required", n)
		}
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.DisallowUnknownFields()
	if err := d.Decode(in); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}

// update runs fn on the project's state in one locked transaction.
func (e *Env) update(ctx context.Context, fn func(p *state.Project) error) error {
	return e.Store.Update(ctx, func(tx *store.Tx) error { return state.UpdateProject(tx, fn) })
}

// project reads the project's state.
func (e *Env) project(ctx context.Context) (*state.Project, error) {
	var p *state.Project
	err := e.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		p, err = state.LoadProject(tx)
		return err
	})
	return p, err
}
