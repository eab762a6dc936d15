// Command spin is a fake hook for hooktime's guard tests: it reads its
// stdin and then burns CPU for the duration linked in as main.spin
// (go build -ldflags=-X=main.spin=5ms), a "regressed build" when it is
// not zero.
package main

import (
	"io"
	"os"
	"time"
)

var spin = "0s"

func main() {
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		os.Exit(1)
	}
	d, err := time.ParseDuration(spin)
	if err != nil {
		os.Exit(1)
	}
	for start := time.Now(); time.Since(start) < d; {
	}
}
