// Package companion starts atreides's companion programs that serve a
// project until interrupted (atreides-ui, atreides-otel), finds a
// companion next to the atreides binary ([Path]) and runs it for a
// command, passing signals on ([Run]). They are separate programs so that
// the hook binary does not link what they need (net/http and more); the
// hook binary imports this package only to find and run them.
package companion

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/atreides-dev/atreides/internal/buildinfo"
	"github.com/atreides-dev/atreides/internal/project"
)

// Main parses the program's arguments with fs, named after the program
// ("atreides-ui"), then runs run for the project of the working directory
// until it returns; SIGINT and SIGTERM end its ctx. A bad argument exits 2
// and points at help, the 'atreides' command whose help describes the
// program ("atreides ui"); an error exits 1, printed as that command's
// ("atreides ui: ..."). --version prints the program's name and build
// (package buildinfo) and exits 0.
func Main(fs *flag.FlagSet, help string, run func(ctx context.Context, root string) error) {
	name := fs.Name()
	showVersion := fs.Bool("version", false, "print the version")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *showVersion {
		fmt.Println(buildinfo.SummaryOf(name))
		return
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "%s: unexpected argument %q (see '%s --help')\n", name, fs.Arg(0), help)
		os.Exit(2)
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, name+": working directory:", err)
		os.Exit(1)
	}
	root, err := project.ForCommand(wd)
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, root); err != nil {
		fmt.Fprintln(os.Stderr, strings.Replace(name, "-", " ", 1)+":", err)
		os.Exit(1)
	}
}
