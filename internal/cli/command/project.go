package command

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
)

// CwdRoot is the project root for commands run from a terminal.
func CwdRoot(io *IO) (string, error) {
	wd, err := io.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	return project.ForCommand(wd)
}

// ReadProject reads the record of the project of the working directory.
func ReadProject(io *IO) (*state.Project, error) {
	root, err := CwdRoot(io)
	if err != nil {
		return nil, err
	}
	return ReadProjectAt(root)
}

// ReadProjectAt reads the record of the project at root, for a command
// that has found the root already.
func ReadProjectAt(root string) (*state.Project, error) {
	p, err := state.ReadProject(context.Background(), fleet.Open(root))
	if err != nil {
		return nil, fmt.Errorf("read project state: %w", err)
	}
	return p, nil
}

// ReadExistingProject is ReadProjectAt for a command that only looks: in
// a project without atreides's state (HasState) an empty record, and no
// state created by the look.
func ReadExistingProject(root string) (*state.Project, error) {
	if !HasState(root) {
		return &state.Project{}, nil
	}
	return ReadProjectAt(root)
}

// UpdateProject changes the project record in one locked transaction.
func UpdateProject(io *IO, fn func(*state.Project) error) error {
	root, err := CwdRoot(io)
	if err != nil {
		return err
	}
	return UpdateProjectAt(root, fn)
}

// UpdateProjectAt is UpdateProject for the project at root, for a command
// that has found the root already.
func UpdateProjectAt(root string, fn func(*state.Project) error) error {
	return state.UpdateProjectIn(context.Background(), fleet.OpenLogged(root), fn)
}

// CwdConfig is the project root of the working directory and its
// configuration, for a command that cannot go on when the configuration
// does not load (the error says why).
func CwdConfig(io *IO) (root string, c *config.Config, err error) {
	if root, err = CwdRoot(io); err != nil {
		return "", nil, err
	}
	if c, err = LoadConfig(root); err != nil {
		return "", nil, err
	}
	return root, c, nil
}

// LoadConfig is the configuration of the project at root as every command
// reads it: the files' when they load, else the built-in one with the
// error that says why; each command decides what a broken file means for
// it.
func LoadConfig(root string) (*config.Config, error) {
	return config.LoadOrBuiltin(config.DefaultPaths(root))
}
