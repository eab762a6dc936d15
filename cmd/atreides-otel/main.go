// Command atreides-otel ships a project's span spool to an OpenTelemetry
// collector over OTLP/HTTP (package otlpexport). It is a separate program
// from atreides so that the hook binary, started once per hook event, does
// not pay net/http's and protobuf's package init; 'atreides otel export'
// checks its flags and runs it when it is installed next to atreides.
package main

import (
	"context"
	"flag"
	"os"
	"time"

	"github.com/atreides-dev/atreides/internal/companion"
	"github.com/atreides-dev/atreides/internal/otlpexport"
)

func main() {
	o := otlpexport.Options{Getenv: os.Getenv, Err: os.Stderr}
	fs := flag.NewFlagSet("atreides-otel", flag.ContinueOnError)
	fs.StringVar(&o.Endpoint, "endpoint", "", "the OTLP/HTTP base URL")
	fs.BoolVar(&o.Follow, "follow", false, "keep shipping spans as hooks write them")
	fs.DurationVar(&o.Poll, "poll", 500*time.Millisecond, "with --follow, how often to look for new spans")
	companion.Main(fs, "atreides otel export", func(ctx context.Context, root string) error {
		o.Root = root
		return otlpexport.Run(ctx, o)
	})
}
