package features

import (
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/testrun"
)

// A run written by hand as `go test -json` writes it: in test/e2e TestA
// passes, TestB's subtest "sub one" passes, TestSkip skips, TestFail
// fails, TestHalf passes while its subtest skips, TestCut never ends; in
// internal/x TestC passes; internal/y has no results at all.
const handRun = `{"Action":"run","Package":"m/test/e2e","Test":"TestA"}
{"Action":"pass","Package":"m/test/e2e","Test":"TestA"}
{"Action":"run","Package":"m/test/e2e","Test":"TestB/sub_one"}
{"Action":"pass","Package":"m/test/e2e","Test":"TestB/sub_one"}
{"Action":"pass","Package":"m/test/e2e","Test":"TestB"}
{"Action":"output","Package":"m/test/e2e","Test":"TestSkip","Output":"    harness_test.go:182: claude is not installed\n"}
{"Action":"output","Package":"m/test/e2e","Test":"TestSkip","Output":"--- SKIP: TestSkip (0.00s)\n"}
{"Action":"skip","Package":"m/test/e2e","Test":"TestSkip"}
{"Action":"output","Package":"m/test/e2e","Test":"TestFail","Output":"    x_test.go:3: want deny\n"}
{"Action":"fail","Package":"m/test/e2e","Test":"TestFail"}
{"Action":"output","Package":"m/test/e2e","Test":"TestHalf/gemini","Output":"    h_test.go:8: no gemini\n"}
{"Action":"skip","Package":"m/test/e2e","Test":"TestHalf/gemini"}
{"Action":"pass","Package":"m/test/e2e","Test":"TestHalf"}
{"Action":"output","Package":"m/test/e2e","Test":"TestCut","Output":"panic: test timed out after 30m0s\n"}
{"Action":"fail","Package":"m/test/e2e"}
{"Action":"pass","Package":"m/internal/x","Test":"TestC"}
{"Action":"pass","Package":"m/internal/x"}
`

// TestCheckResults: each way a named test can fail to prove its cell is
// named with the cell and the test; passing tests, subtests written with
// spaces, and cells that claim nothing are not.
func TestCheckResults(t *testing.T) {
	res, err := testrun.Read(strings.NewReader(handRun))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		cell Cell
		want string // a part of the one problem; "" for none
	}{
		{"pass", e2e("TestA"), ""},
		{"subtest with a space passes", e2e("TestB/sub one"), ""},
		{"subtest as go test names it", e2e("TestB/sub_one"), ""},
		{"process test passes", proc("internal/x.TestC"), ""},
		{"skip", e2e("TestSkip"), "test/e2e.TestSkip skipped: harness_test.go:182: claude is not installed"},
		{"fail", e2e("TestFail"), "test/e2e.TestFail failed"},
		{"missing test", e2e("TestGone"), "test/e2e.TestGone did not run: its package ran without it"},
		{"missing subtest", e2e("TestB/other"), "test/e2e.TestB/other did not run"},
		{"missing package", proc("internal/y.TestD"), "internal/y.TestD did not run: the run has no result for its package"},
		{"skipped subtest of a passing test", e2e("TestHalf"), "passed, but its subtest TestHalf/gemini skipped: h_test.go:8: no gemini"},
		{"cut short", e2e("TestCut"), "test/e2e.TestCut never ended: its test binary died (panic: test timed out after 30m0s)"},
		{"a cannot cell's evidence", cannot("no event", "TestSkip"), "(✗): test/e2e.TestSkip skipped"},
		{"a missing cell claims nothing", missing("not yet"), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := checkResults([]Row{{"guard", "claude", c.cell}}, res, "m")
			switch {
			case c.want == "" && len(got) != 0:
				t.Errorf("problems %q, want none", got)
			case c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want) || !strings.HasPrefix(got[0], "guard on claude (")):
				t.Errorf("problems %q, want one about guard on claude with %q", got, c.want)
			}
		})
	}
}

// TestCheckResultsEveryTest: a cell is checked test by test, each
// failing one named.
func TestCheckResultsEveryTest(t *testing.T) {
	res, err := testrun.Read(strings.NewReader(handRun))
	if err != nil {
		t.Fatal(err)
	}
	got := checkResults([]Row{{"todos", "qwen", e2e("TestA", "TestSkip", "TestFail")}}, res, "m")
	if len(got) != 2 || !strings.Contains(got[0], "TestSkip") || !strings.Contains(got[1], "TestFail") {
		t.Errorf("problems %q, want TestSkip's and TestFail's", got)
	}
}

// TestResultsFile: without the variable the check skips with a reason,
// except under ATREIDES_E2E_REQUIRE=1, where it is an error.
func TestResultsFile(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	if p, skip, err := resultsFile(env(map[string]string{resultsEnv: "/r.json", "ATREIDES_E2E_REQUIRE": "1"})); p != "/r.json" || skip != "" || err != nil {
		t.Errorf("with the file: %q %q %v", p, skip, err)
	}
	if p, skip, err := resultsFile(env(nil)); p != "" || !strings.Contains(skip, resultsEnv) || err != nil {
		t.Errorf("without: %q %q %v", p, skip, err)
	}
	if _, skip, err := resultsFile(env(map[string]string{"ATREIDES_E2E_REQUIRE": "1"})); skip != "" || err == nil || !strings.Contains(err.Error(), resultsEnv) {
		t.Errorf("required: %q %v", skip, err)
	}
}
