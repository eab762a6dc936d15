// Command testjson reads `go test -json` on stdin, keeps the stream in
// the file -o names and prints what a plain `go test` would (package
// internal/testrun), then how many tests passed, failed and skipped;
// scripts/test runs it in its tests stage. It exits
// non-zero only when it cannot read its input or keep the file: go
// test's own exit status says whether the tests passed.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/atreides-dev/atreides/internal/testrun"
)

func main() {
	out := flag.String("o", "", "the file to keep the test events in (required)")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "testjson:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	if path == "" {
		return fmt.Errorf("-o names no file to keep the test events in")
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("keeping the test events: %w", err)
	}
	raw := bufio.NewWriter(f)
	counts, ferr := testrun.Filter(os.Stdin, raw, os.Stdout)
	fmt.Println(counts)
	if err := raw.Flush(); err != nil && ferr == nil {
		ferr = fmt.Errorf("keeping the test events: %w", err)
	}
	if err := f.Close(); err != nil && ferr == nil {
		ferr = fmt.Errorf("keeping the test events: %w", err)
	}
	return ferr
}
