// Command floor is the least a hook process can cost: a Go program that
// reads its payload from stdin and exits. hooktime -vs floor compares a
// hook against it, which separates what atreides does from what starting
// any Go process costs on the machine.
package main

import (
	"io"
	"os"
)

func main() {
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		os.Exit(1)
	}
}
