// Command release builds atreides's release into dist/ (package
// internal/release); scripts/release runs it. See 'scripts/release -h'.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/release"
)

func main() {
	o := release.Options{Log: os.Stderr}
	targets := ""
	fs := flag.NewFlagSet("scripts/release", flag.ContinueOnError)
	fs.BoolVar(&o.Snapshot, "snapshot", false, "build any commit, dirty or not, as version v0.0.0-snapshot-<commit>; without it HEAD must be a clean checkout tagged vX.Y.Z")
	fs.StringVar(&targets, "targets", "", "os/arch,... to build (default: linux, darwin, windows on amd64 and arm64)")
	fs.StringVar(&o.Out, "out", "", "the output directory, wiped first when an earlier release made it (default: dist in the checkout)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if err := run(&o, targets); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

// run fills what the flags leave to the checkout and makes the release.
// scripts/release runs this in the checkout and names the directory it
// was started from in ATREIDES_RELEASE_CWD, which a relative --out is
// relative to.
func run(o *release.Options, targets string) error {
	var err error
	if targets != "" {
		if o.Targets, err = release.ParseTargets(targets); err != nil {
			return err
		}
	}
	if o.Root, err = os.Getwd(); err != nil {
		return err
	}
	switch {
	case o.Out == "":
		o.Out = filepath.Join(o.Root, "dist")
	case !filepath.IsAbs(o.Out) && os.Getenv("ATREIDES_RELEASE_CWD") != "":
		o.Out = filepath.Join(os.Getenv("ATREIDES_RELEASE_CWD"), o.Out)
	}
	if o.Out, err = filepath.Abs(o.Out); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	_, err = release.Run(ctx, *o)
	return err
}
