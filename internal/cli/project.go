package cli

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
)

// cwdRoot is the project root for commands run from a terminal.
func cwdRoot(io *IO) (string, error) {
	wd, err := io.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	return project.ForCommand(wd)
}

func readProject(io *IO) (*state.Project, error) {
	root, err := cwdRoot(io)
	if err != nil {
		return nil, err
	}
	return readProjectAt(root)
}

// readProjectAt reads the record of the project at root, for a command
// that has found the root already.
func readProjectAt(root string) (*state.Project, error) {
	p, err := state.ReadProject(context.Background(), fleet.Open(root))
	if err != nil {
		return nil, fmt.Errorf("read project state: %w", err)
	}
	return p, nil
}

// updateProject changes the project record in one locked transaction.
func updateProject(io *IO, fn func(*state.Project) error) error {
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	return updateProjectAt(root, fn)
}

// updateProjectAt is updateProject for the project at root, for a command
// that has found the root already.
func updateProjectAt(root string, fn func(*state.Project) error) error {
	return state.UpdateProjectIn(context.Background(), fleet.OpenLogged(root), fn)
}

// loadConfig is the configuration of the project at root as every command
// reads it: the files' when they load, else the built-in one with the
// error that says why; each command decides what a broken file means for
// it.
func loadConfig(root string) (*config.Config, error) {
	return config.LoadOrBuiltin(config.DefaultPaths(root))
}
