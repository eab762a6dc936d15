package testrun

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Result is how one test ended in a run.
type Result struct {
	// Action is pass, fail or skip; empty for a test that started and
	// never ended (its binary died).
	Action string
	// Output is the last lines the test printed itself (at most
	// keptLines), without go test's framing lines (=== RUN, --- PASS and
	// the like): enough for a reason, while a run's whole log stays out
	// of memory.
	Output []string
}

// Reason is the test's last line of its own output, trimmed: for a skip,
// what t.Skip said; empty when it printed nothing.
func (r Result) Reason() string {
	if len(r.Output) == 0 {
		return ""
	}
	return strings.TrimSpace(r.Output[len(r.Output)-1])
}

// keptLines is how many of a test's last output lines a Result keeps.
const keptLines = 20

// Results are the outcomes of one `go test -json` run.
type Results struct {
	tests    map[[2]string]*Result // by package and test name
	packages map[string]string     // a package's closing action
}

// Read reads a `go test -json` stream; lines that are not events are
// passed over.
func Read(in io.Reader) (*Results, error) {
	r := &Results{tests: map[[2]string]*Result{}, packages: map[string]string{}}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		if e, ok := decode(sc.Text()); ok {
			r.add(e)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the test events: %w", err)
	}
	return r, nil
}

func (r *Results) add(e Event) {
	if e.Test == "" {
		if ended(e.Action) {
			r.packages[e.Package] = e.Action
		}
		return
	}
	k := [2]string{e.Package, e.Test}
	res := r.tests[k]
	if res == nil {
		res = &Result{}
		r.tests[k] = res
	}
	switch {
	case ended(e.Action):
		res.Action = e.Action
	case e.Action == "output" && !framing(e.Output):
		res.Output = append(res.Output, e.Output)
		if len(res.Output) > keptLines {
			res.Output = res.Output[1:]
		}
	}
}

// framing reports whether an output line is go test's own: the === and
// --- lines around each test.
func framing(line string) bool {
	s := strings.TrimLeft(line, " ")
	return strings.HasPrefix(s, "=== ") || strings.HasPrefix(s, "--- ")
}

// Test is the named test's result ("TestX/sub" as go test names it);
// ok is false when the run has no such test.
func (r *Results) Test(pkg, name string) (Result, bool) {
	res, ok := r.tests[[2]string{pkg, name}]
	if !ok {
		return Result{}, false
	}
	return *res, true
}

// Package is how the package's test binary ended (pass, fail, skip);
// ok is false when the run did not test the package.
func (r *Results) Package(pkg string) (action string, ok bool) {
	action, ok = r.packages[pkg]
	return action, ok
}

// Subtests are the names of the tests under name, at any depth, sorted.
func (r *Results) Subtests(pkg, name string) []string {
	var out []string
	for k := range r.tests {
		if k[0] == pkg && strings.HasPrefix(k[1], name+"/") {
			out = append(out, k[1])
		}
	}
	slices.Sort(out)
	return out
}
