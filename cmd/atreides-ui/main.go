// Command atreides-ui serves the dashboard (package dashboard) and, as
// 'atreides-ui top', shows the terminal view of 'atreides top' (package
// top). It is a separate program from atreides so that the hook binary,
// started once per hook event, does not pay net/http's package init nor
// link a terminal UI library; 'atreides ui' and 'atreides top' check
// their flags and run it when it is installed next to atreides. Both
// views are in one program so that they share the read model and ship
// as one companion.
package main

import (
	"context"
	"flag"
	"os"

	"github.com/atreides-dev/atreides/internal/companion"
	"github.com/atreides-dev/atreides/internal/dashboard"
	"github.com/atreides-dev/atreides/internal/dashboard/listen"
	"github.com/atreides-dev/atreides/internal/top"
	// A team's project keeps its state in PostgreSQL (see atreides-team).
	_ "github.com/atreides-dev/atreides/internal/store/pgstore"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "top" {
		// companion.Main parses os.Args[1:]: drop the program's name so
		// that it parses what follows "top".
		os.Args = os.Args[1:]
		mainTop()
		return
	}
	o := dashboard.RunOptions{Out: os.Stdout, Err: os.Stderr}
	fs := flag.NewFlagSet("atreides-ui", flag.ContinueOnError)
	fs.StringVar(&o.Addr, "addr", listen.DefaultAddr, "the address to listen on (host:port)")
	fs.BoolVar(&o.Open, "open", false, "open the dashboard in the browser")
	fs.BoolVar(&o.All, "all", false, "show every project atreides knows")
	fs.BoolVar(&o.AllowRemote, "allow-remote", false, "allow a non-loopback --addr (needs a token)")
	// The token comes from the environment, not the command line, where
	// every user of the machine could read it in the process list.
	o.Token = os.Getenv("ATREIDES_UI_TOKEN")
	companion.Main(fs, "atreides ui", func(ctx context.Context, root string) error {
		o.Root = root
		return dashboard.Run(ctx, o)
	})
}

// mainTop is 'atreides-ui top', the terminal view (package top).
func mainTop() {
	fs := flag.NewFlagSet("atreides-ui top", flag.ContinueOnError)
	all := fs.Bool("all", false, "show every project atreides knows")
	companion.Main(fs, "atreides top", func(ctx context.Context, root string) error {
		return top.RunProject(ctx, root, *all)
	})
}
