// Command atreides-ui serves the dashboard (package dashboard). It is a
// separate program from atreides so that the hook binary, started once per
// hook event, does not pay net/http's package init; 'atreides ui' checks
// its flags and runs it when it is installed next to atreides.
package main

import (
	"context"
	"flag"
	"os"

	"github.com/atreides-dev/atreides/internal/companion"
	"github.com/atreides-dev/atreides/internal/dashboard"
	"github.com/atreides-dev/atreides/internal/dashboard/listen"
	// A team's project keeps its state in PostgreSQL (see atreides-team).
	_ "github.com/atreides-dev/atreides/internal/store/pgstore"
)

func main() {
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
