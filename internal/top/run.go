package top

import (
	"context"
	"errors"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/dashboard"
	"github.com/atreides-dev/atreides/internal/project"
	"golang.org/x/term"
)

// Options are the settings of `atreides top`.
type Options struct {
	// Roots are the projects shown, the one top was started in first.
	Roots []string
	// In and Out are the terminal: both must be one.
	In, Out *os.File
	// Color: the terminal takes colours (NO_COLOR is unset).
	Color bool
}

// ErrNoTerminal is top run without a terminal to draw on and read keys
// from (a pipe, a file, an agent's shell tool).
var ErrNoTerminal = errors.New("needs a terminal on stdin and stdout; for a one-shot view run 'atreides status' (--json for scripts)")

// RunProject is 'atreides-ui top' in the project root: the terminal
// view over the dashboard's read model (a server that serves no page,
// for its shared snapshots and its one watcher of each project). all
// adds every project atreides knows, as 'atreides ui --all' does, as
// they are known when it starts.
func RunProject(ctx context.Context, root string, all bool) error {
	logf := project.NewLog(project.StateDir(root)).Logf
	roots := []string{root}
	if all {
		var err error
		if roots, err = dashboard.KnownRoots(root); err != nil {
			logf("top: %v", err)
		}
	}
	srv := dashboard.New(dashboard.Config{Root: root, Options: dashboard.ProjectOptions, Logf: logf})
	defer srv.Close()
	o := Options{Roots: roots, In: os.Stdin, Out: os.Stdout, Color: os.Getenv("NO_COLOR") == ""}
	return Run(ctx, o, srv, dashboard.Trail)
}

// Run shows o.Roots' sessions from src until the user quits or ctx ends
// (SIGINT, SIGTERM: a normal end). trail is the project's audit trail.
func Run(ctx context.Context, o Options, src Source, trail func(root string) audit.Reader) error {
	if !term.IsTerminal(int(o.In.Fd())) || !term.IsTerminal(int(o.Out.Fd())) {
		return ErrNoTerminal
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if len(o.Roots) == 0 {
		return errors.New("no project to show")
	}
	l := loader{src: src, roots: o.Roots, trail: trail}
	load := func(focus string) tea.Cmd {
		return func() tea.Msg {
			d, err := l.load(ctx, focus)
			return dataMsg{data: d, err: err}
		}
	}
	p := tea.NewProgram(newModel(load, o.Color), tea.WithContext(ctx), tea.WithInput(o.In), tea.WithOutput(o.Out))
	for _, root := range o.Roots {
		go forward(ctx, src.Watch(ctx, root), p)
	}
	_, err := p.Run()
	if err != nil && !(errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil) {
		return fmt.Errorf("run the terminal view: %w", err)
	}
	return nil
}

// forward tells p of each change heard on changes until ctx ends.
func forward(ctx context.Context, changes <-chan struct{}, p *tea.Program) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-changes:
			p.Send(changedMsg{})
		}
	}
}
