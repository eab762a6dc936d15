// Command atreides-team is atreides with the team store's database driver
// linked in (package pgstore). atreides runs it in its own place for a
// project whose state is in a team's PostgreSQL database, so that the hook
// binary of every other project does not pay the driver's start-up; it
// can also be run, or installed as the hook command, directly.
package main

import (
	"fmt"
	"os"

	"github.com/atreides-dev/atreides/internal/buildinfo"

	"github.com/atreides-dev/atreides/internal/cli"
	_ "github.com/atreides-dev/atreides/internal/store/pgstore"
)

func main() {
	// Asked alone, --version names this program, not atreides: it is how
	// a release check tells the five programs apart.
	if len(os.Args) == 2 && os.Args[1] == "--version" {
		fmt.Println(buildinfo.SummaryOf("atreides-team"))
		return
	}
	os.Exit(cli.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
