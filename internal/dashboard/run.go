package dashboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"runtime"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/dashboard/listen"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/view"
)

// RunOptions are the settings of `atreides ui`.
type RunOptions struct {
	Root        string
	Addr        string
	Open        bool
	All         bool
	AllowRemote bool
	Token       string
	Out, Err    io.Writer
}

// Run serves the dashboard of o.Root until ctx ends, then shuts down:
// the event streams first (they never end by themselves), then the
// requests in flight, for up to three seconds.
func Run(ctx context.Context, o RunOptions) error {
	l, err := listen.Listen(o.Addr, o.AllowRemote, o.Token)
	if err != nil {
		return err
	}
	log := project.NewLog(project.StateDir(o.Root))
	cfg := Config{Root: o.Root, Addr: l.Addr().String(), Token: o.Token, Options: ProjectOptions, Logf: log.Logf}
	if o.All {
		cfg.Projects = func() ([]string, error) { return knownRoots(o.Root) }
	}
	srv := New(cfg)
	defer srv.Close()
	url := "http://" + l.Addr().String() + "/"
	fmt.Fprintf(o.Out, "atreides ui: %s (project %s)\n", url, o.Root)
	if o.Token != "" {
		fmt.Fprintln(o.Out, "every request needs the token: open the page once with ?token=<your token>")
	}
	// Only here, and on stderr: the code is what makes an action the
	// user's (see Server.Confirmation).
	fmt.Fprintf(o.Err, "confirmation code for the dashboard's actions (type it in the page when asked): %s\n", srv.Confirmation())
	fmt.Fprintln(o.Out, "Ctrl-C stops")
	if o.Open {
		openBrowser(o.Err, url)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(l) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve %s: %w", url, err)
	case <-ctx.Done():
	}
	srv.Close()
	shut, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// ProjectOptions are a project's snapshot options from its
// configuration; a configuration that does not load leaves the defaults.
func ProjectOptions(root string) view.Options {
	c, _ := config.LoadOrBuiltin(config.DefaultPaths(root))
	return view.OptionsOf(c, policy.ConfigDir())
}

// knownRoots is every project the user has run atreides in (package
// project's registry, kept at session starts), this one first even before
// its first session.
func knownRoots(root string) ([]string, error) {
	known, err := project.Known()
	roots := []string{root}
	for _, k := range known {
		if k.Root != root {
			roots = append(roots, k.Root)
		}
	}
	return roots, err
}

// openBrowser opens url with the system's opener; without one the URL
// printed is enough.
func openBrowser(errw io.Writer, url string) {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	cmd := exec.Command(name, url)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(errw, "could not open a browser (%v): open %s\n", err, url)
		return
	}
	go func() { _ = cmd.Wait() }()
}
