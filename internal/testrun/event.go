package testrun

import (
	"encoding/json"
	"strings"
)

// Event is one line of `go test -json` (cmd/test2json's TestEvent, and
// the build events cmd/go adds).
type Event struct {
	Action     string  // start, run, pause, cont, pass, fail, skip, bench, output, build-output, build-fail
	Package    string  // the import path of a test event
	ImportPath string  // the package a build event is about
	Test       string  // empty for a package-level event
	Elapsed    float64 // seconds, on pass, fail and skip
	Output     string  // on output and build-output
}

// decode reads one line as an event; ok is false for a line that is not
// one (a stray line on go test's stdout), which is kept as it is.
func decode(line string) (Event, bool) {
	var e Event
	if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil || e.Action == "" {
		return Event{}, false
	}
	return e, true
}

// ended reports whether the action closes a test or a package.
func ended(action string) bool {
	return action == "pass" || action == "fail" || action == "skip"
}

// topLevel is the top-level test a (sub)test belongs to: "TestX" for
// "TestX/a/b".
func topLevel(test string) string {
	top, _, _ := strings.Cut(test, "/")
	return top
}
