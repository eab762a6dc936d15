// Command atreides-otel ships a project's span spool to an OpenTelemetry
// collector over OTLP/HTTP (package otlpexport). It is a separate program
// from atreides so that the hook binary, started once per hook event, does
// not pay net/http's and protobuf's package init; 'atreides otel export'
// checks its flags and runs it when it is installed next to atreides.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/atreides-dev/atreides/internal/otlpexport"
	"github.com/atreides-dev/atreides/internal/project"
)

func main() {
	o := otlpexport.Options{Getenv: os.Getenv, Err: os.Stderr}
	fs := flag.NewFlagSet("atreides-otel", flag.ContinueOnError)
	fs.StringVar(&o.Endpoint, "endpoint", "", "the OTLP/HTTP base URL")
	fs.BoolVar(&o.Follow, "follow", false, "keep shipping spans as hooks write them")
	fs.DurationVar(&o.Poll, "poll", 500*time.Millisecond, "with --follow, how often to look for new spans")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "atreides-otel: unexpected argument %q (see 'atreides otel export --help')\n", fs.Arg(0))
		os.Exit(2)
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "atreides-otel: working directory:", err)
		os.Exit(1)
	}
	o.Root = project.Root("", wd)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := otlpexport.Run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "atreides otel:", err)
		os.Exit(1)
	}
}
