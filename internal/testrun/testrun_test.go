package testrun

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// stream writes events as `go test -json` does, one JSON object a line.
func stream(t *testing.T, events ...Event) string {
	t.Helper()
	var b strings.Builder
	for _, e := range events {
		data, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

const pkg = "example.com/p"

func out(test, text string) Event {
	return Event{Action: "output", Package: pkg, Test: test, Output: text}
}

func end(test, action string) Event { return Event{Action: action, Package: pkg, Test: test} }

// run is a package with a passing test, a skipped one, a failing test
// whose subtest failed and whose other subtest passed, then a build
// error, a stray line and a test cut short by a panic.
func run(t *testing.T) string {
	return stream(t,
		out("TestOK", "=== RUN   TestOK\n"), out("TestOK", "    ok_test.go:3: quiet\n"), end("TestOK", "pass"),
		out("TestSkip", "    s_test.go:9: no chromium\n"), out("TestSkip", "--- SKIP: TestSkip (0.00s)\n"), end("TestSkip", "skip"),
		out("TestBad", "=== RUN   TestBad\n"),
		out("TestBad/a_b", "=== RUN   TestBad/a_b\n"), out("TestBad/a_b", "    bad_test.go:7: want 2, got 3\n"), end("TestBad/a_b", "fail"),
		out("TestBad/fine", "    bad_test.go:9: fine log\n"), end("TestBad/fine", "pass"),
		out("TestBad", "--- FAIL: TestBad (0.01s)\n"), end("TestBad", "fail"),
		out("", "FAIL\n"), out("", "FAIL\texample.com/p\t0.02s\n"), end("", "fail"),
		Event{Action: "build-output", ImportPath: "example.com/q", Output: "q.go:1: syntax error\n"},
		Event{Action: "output", Package: "example.com/r", Output: "PASS\n"},
		Event{Action: "output", Package: "example.com/r", Output: "ok  \texample.com/r\t0.1s\n"},
		Event{Action: "pass", Package: "example.com/r"},
	) + "not json\n" + stream(t,
		Event{Action: "output", Package: "example.com/s", Test: "TestCut", Output: "panic: boom\n"},
		Event{Action: "fail", Package: "example.com/s"},
	)
}

// TestFilter: the file keeps every line; the text is a plain go test's:
// a failing test's whole output (its passing subtest's log included),
// nothing of passing or skipped tests, no bare PASS, the closing lines,
// build errors, stray lines, and what a dead binary's test printed.
func TestFilter(t *testing.T) {
	in := run(t)
	var raw, text bytes.Buffer
	counts, err := Filter(strings.NewReader(in), &raw, &text)
	if err != nil {
		t.Fatal(err)
	}
	if counts.String() != "tests: 2 passed, 2 failed, 1 skipped" {
		t.Errorf("counts: %s", counts)
	}
	if raw.String() != in {
		t.Errorf("the file is not the stream:\n%s", raw.String())
	}
	want := "=== RUN   TestBad\n=== RUN   TestBad/a_b\n    bad_test.go:7: want 2, got 3\n    bad_test.go:9: fine log\n--- FAIL: TestBad (0.01s)\n" +
		"FAIL\nFAIL\texample.com/p\t0.02s\n" +
		"q.go:1: syntax error\n" +
		"ok  \texample.com/r\t0.1s\n" +
		"not json\n" +
		"panic: boom\n"
	if text.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), want)
	}
}

// TestRead: each test's end, its own output without go test's framing,
// the skip's reason, the packages, and the subtests under a test.
func TestRead(t *testing.T) {
	r, err := Read(strings.NewReader(run(t)))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"TestOK": "pass", "TestSkip": "skip", "TestBad": "fail", "TestBad/a_b": "fail", "TestBad/fine": "pass"} {
		if got, ok := r.Test(pkg, name); !ok || got.Action != want {
			t.Errorf("%s: %q (found %v), want %q", name, got.Action, ok, want)
		}
	}
	if got, _ := r.Test(pkg, "TestSkip"); got.Reason() != "s_test.go:9: no chromium" {
		t.Errorf("skip reason %q", got.Reason())
	}
	if got, ok := r.Test("example.com/s", "TestCut"); !ok || got.Action != "" || got.Reason() != "panic: boom" {
		t.Errorf("a test cut short: %+v %v", got, ok)
	}
	if _, ok := r.Test(pkg, "TestNone"); ok {
		t.Error("a test the run lacks is found")
	}
	if a, ok := r.Package("example.com/r"); !ok || a != "pass" {
		t.Errorf("package r: %q %v", a, ok)
	}
	if _, ok := r.Package("example.com/q"); ok {
		t.Error("a package that did not build has a result")
	}
	if got := strings.Join(r.Subtests(pkg, "TestBad"), ","); got != "TestBad/a_b,TestBad/fine" {
		t.Errorf("subtests %s", got)
	}
}

// TestReadKeepsTheLastLines: a test's long log keeps only its tail, the
// reason at its end.
func TestReadKeepsTheLastLines(t *testing.T) {
	var events []Event
	for range keptLines * 3 {
		events = append(events, out("TestLong", "    l_test.go:1: noise\n"))
	}
	events = append(events, out("TestLong", "    l_test.go:2: the reason\n"), end("TestLong", "skip"))
	r, err := Read(strings.NewReader(stream(t, events...)))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := r.Test(pkg, "TestLong")
	if len(got.Output) != keptLines || got.Reason() != "l_test.go:2: the reason" {
		t.Errorf("%d lines kept, reason %q", len(got.Output), got.Reason())
	}
}
