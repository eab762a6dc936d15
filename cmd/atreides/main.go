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
