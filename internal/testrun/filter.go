package testrun

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Filter copies the `go test -json` stream in to raw, line by line, and
// prints to text what a plain `go test` prints: each package's closing
// line (ok, FAIL, no test files), build errors, and the whole output of
// a failing top-level test, its subtests' included, as `go test -v`
// shows it; a passing or skipped test prints nothing. A package whose
// binary died (a panic, a timeout) prints the output of the tests it
// left unfinished. It reads to the end of in whatever happens, so that
// go test is never stopped by a closed pipe. It counts the tests,
// subtests included, by how they ended.
func Filter(in io.Reader, raw, text io.Writer) (Counts, error) {
	f := &filter{text: text, open: map[string]map[string][]string{}}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	var werr error
	for sc.Scan() {
		line := sc.Text()
		if _, err := fmt.Fprintln(raw, line); err != nil && werr == nil {
			werr = fmt.Errorf("keeping the test events: %w", err)
		}
		f.line(line)
	}
	if err := sc.Err(); err != nil {
		return f.counts, fmt.Errorf("reading the test events: %w", err)
	}
	return f.counts, werr
}

// Counts are how many tests passed, failed and skipped.
type Counts struct{ Passed, Failed, Skipped int }

// String is the closing line of a run, as test runners write it.
func (c Counts) String() string {
	return fmt.Sprintf("tests: %d passed, %d failed, %d skipped", c.Passed, c.Failed, c.Skipped)
}

func (c *Counts) add(action string) {
	switch action {
	case "pass":
		c.Passed++
	case "fail":
		c.Failed++
	case "skip":
		c.Skipped++
	}
}

// filter is Filter's state: the output of each running top-level test,
// by package, kept until it passes (dropped) or fails (printed).
type filter struct {
	text   io.Writer
	open   map[string]map[string][]string
	counts Counts
}

func (f *filter) line(line string) {
	e, ok := decode(line)
	switch {
	case !ok:
		fmt.Fprintln(f.text, line)
	case e.Action == "build-output":
		fmt.Fprint(f.text, e.Output)
	case e.Test == "":
		f.packageEvent(e)
	default:
		f.testEvent(e)
	}
}

// packageEvent prints a package's own output but the bare PASS a plain
// go test leaves out; at its end, tests still open were cut short.
func (f *filter) packageEvent(e Event) {
	if e.Action == "output" && e.Output != "PASS\n" {
		fmt.Fprint(f.text, e.Output)
	}
	if ended(e.Action) {
		for _, out := range f.open[e.Package] {
			fmt.Fprint(f.text, strings.Join(out, ""))
		}
		delete(f.open, e.Package)
	}
}

func (f *filter) testEvent(e Event) {
	tests := f.open[e.Package]
	if tests == nil {
		tests = map[string][]string{}
		f.open[e.Package] = tests
	}
	f.counts.add(e.Action)
	top := topLevel(e.Test)
	if e.Action == "output" {
		tests[top] = append(tests[top], e.Output)
	}
	if !ended(e.Action) || e.Test != top {
		return
	}
	if e.Action == "fail" {
		fmt.Fprint(f.text, strings.Join(tests[top], ""))
	}
	delete(tests, top)
}
