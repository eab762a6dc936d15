package tasks

import (
	"context"
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// Options are the task system's settings, from the configuration's tasks
// section.
type Options struct {
	// Dir is the specs directory, relative to the project root.
	Dir string
	// Plans are the plans' approval and verification settings.
	Plans PlanOptions
	// Commits turns the scoped commits on (commit.go).
	Commits bool
}

// DefaultDir is the specs directory when the configuration cannot be read.
const DefaultDir = ".atreides/specs"

// FromConfig maps the configuration's tasks section.
func FromConfig(c *config.Config) Options {
	return Options{Dir: c.Tasks.Dir, Plans: planOptions(&c.Tasks.Plans), Commits: c.Tasks.Commits.Enabled}
}

// LoadOptions reads the options of the project at root; a configuration
// that cannot be read gives the defaults (the task system is not a
// security decision).
func LoadOptions(root string) Options {
	c, _ := config.LoadOrBuiltin(config.DefaultPaths(root))
	return FromConfig(c)
}

// Repo is the task board of one project.
type Repo struct {
	Root  string
	Store *store.Store
	Opts  Options
	Now   func() time.Time
	// Confirm asks the user whether to run a verification command the
	// guard asks about (why says what it asks); nil when there is no one
	// to ask, as for the agent's tools: then such a command is not run.
	Confirm func(command string, why error) bool
	// Hosts is what the guard must know of the agent hosts when it judges
	// a verification command (set by the caller from the host registry).
	Hosts policy.Hosts
}

// Open returns the board of the project at root.
func Open(root string, opts Options) *Repo {
	if opts.Dir == "" {
		opts.Dir = DefaultDir
	}
	return &Repo{Root: root, Store: fleet.Open(root), Opts: opts, Now: time.Now}
}

// SpecsDir is the absolute specs directory.
func (r *Repo) SpecsDir() string {
	if filepath.IsAbs(r.Opts.Dir) {
		return r.Opts.Dir
	}
	return filepath.Join(r.Root, r.Opts.Dir)
}

// Update runs fn on the board in one store transaction: a change is all
// or nothing, and numbers and claims are compare-and-swap under the
// store's lock. After fn the board's generation moves on and the files
// are written, still under the lock, so that two changes never write
// them at once; a failure to write them does not undo the change (the
// store is the truth), it is recorded on the board and reported by
// doctor and the next command.
func (r *Repo) Update(ctx context.Context, fn func(b *taskboard.Tasks, now time.Time) error) error {
	return r.Store.Update(ctx, func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			now, b := r.Now().UTC(), taskboard.Key.Of(p)
			before := claimKeys(b)
			if err := fn(b, now); err != nil {
				return err
			}
			b.Gen++
			r.writeFiles(b, now)
			return r.syncSessions(tx, b, before)
		})
	})
}

// View reads the board without changing it.
func (r *Repo) View(ctx context.Context, fn func(b *taskboard.Tasks) error) error {
	return r.Store.View(ctx, func(tx *store.Tx) error {
		p, err := state.LoadProject(tx)
		if err != nil {
			return err
		}
		return fn(taskboard.Key.Read(p))
	})
}
