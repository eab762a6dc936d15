// A hook process lives a few milliseconds and works on one goroutine:
// the runtime's container-aware GOMAXPROCS (reading the cgroup files at
// start-up, and a goroutine that re-reads them while the process runs)
// buys it nothing, and atreides serve waits on disk and on its client,
// not on CPUs.
//
//go:debug containermaxprocs=0
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
