// A hook process lives a few milliseconds: the runtime's goroutine that
// re-reads the cgroup's CPU limit while the process runs (to adjust
// GOMAXPROCS) costs it a goroutine start and sysmon's periodic checks,
// about 1% of a hook's CPU, for nothing. GOMAXPROCS itself is still set
// from the cgroup at start-up.
//
//go:debug updatemaxprocs=0

// Command atreides gives AI coding agents guardrails and orchestration
// through their hosts' hook systems. See 'atreides help'.
package main

import (
	"os"

	"github.com/atreides-dev/atreides/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
