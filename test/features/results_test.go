package features

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/testrun"
)

// resultsEnv names the `go test -json` file of the run the table is held
// against; scripts/test sets it after its tests stage.
const resultsEnv = "ATREIDES_TEST_RESULTS"

// TestFeatureResults: every test a ✓, ○ or ✗ cell names passed in the run
// whose `go test -json` stream the file in $ATREIDES_TEST_RESULTS holds:
// a test that skipped, failed, died or did not run at all (renamed, left
// out, its package not built) takes its cell's claim with it, and so
// does a named test that passed while a subtest of it skipped. ✗ cells
// are held too: their tests are the evidence that the host cannot.
func TestFeatureResults(t *testing.T) {
	path, skip, err := resultsFile(os.Getenv)
	switch {
	case err != nil:
		t.Fatal(err)
	case skip != "":
		t.Skip(skip)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%s: %v", resultsEnv, err)
	}
	defer f.Close()
	res, err := testrun.Read(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	mod, err := modulePath()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range checkResults(rows, res, mod) {
		t.Error(p)
	}
}

// resultsFile is the results file to check, or why the check is skipped;
// under ATREIDES_E2E_REQUIRE=1 (CI) a missing file is an error, since a
// skip there would let the table claim what the run did not prove.
func resultsFile(getenv func(string) string) (path, skip string, err error) {
	if path = getenv(resultsEnv); path != "" {
		return path, "", nil
	}
	why := resultsEnv + " names no `go test -json` file: scripts/test sets it after its tests stage (docs/contributing.md)"
	if getenv("ATREIDES_E2E_REQUIRE") == "1" {
		return "", "", errors.New(why + ", and ATREIDES_E2E_REQUIRE=1 requires it")
	}
	return "", why, nil
}

// modulePath is the module's import path, from go.mod: a cell's
// directory is a package under it.
func modulePath() (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("the module path: %w", err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if mod, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.TrimSpace(mod), nil
		}
	}
	return "", errors.New("go.mod names no module")
}

// checkResults names each test a proven (✓, ○) or impossible (✗) cell
// names that did not pass in res, with its cell and what happened.
func checkResults(rs []Row, res *testrun.Results, mod string) []string {
	var out []string
	for _, r := range rs {
		if r.Kind > Cannot {
			continue
		}
		for _, ref := range r.Tests {
			dir, fn, sub := splitRef(ref)
			name := fn
			if sub != "" {
				name += "/" + sub
			}
			name = strings.ReplaceAll(name, " ", "_") // as go test names a subtest
			if why := verdict(res, mod+"/"+dir, name); why != "" {
				out = append(out, fmt.Sprintf("%s on %s (%s): %s.%s %s", r.Feature, r.Host, r.Kind.Mark(), dir, name, why))
			}
		}
	}
	return out
}

// verdict says why the test does not prove its cell, or "" when it
// passed with no subtest skipped.
func verdict(res *testrun.Results, pkg, name string) string {
	got, ok := res.Test(pkg, name)
	switch {
	case !ok:
		if _, ran := res.Package(pkg); !ran {
			return "did not run: the run has no result for its package (not built, or left out of the run)"
		}
		return "did not run: its package ran without it (renamed, or left out by -run, -skip or -short)"
	case got.Action == "skip":
		return "skipped: " + got.Reason()
	case got.Action == "fail":
		return "failed (its output is in the tests stage's log)"
	case got.Action != "pass":
		return "never ended: its test binary died (" + got.Reason() + ")"
	}
	for _, s := range res.Subtests(pkg, name) {
		if sr, _ := res.Test(pkg, s); sr.Action == "skip" {
			return "passed, but its subtest " + s + " skipped: " + sr.Reason()
		}
	}
	return ""
}
