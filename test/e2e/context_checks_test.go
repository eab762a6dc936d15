package e2e

import (
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// TestClaudeEditChecks: with a check `gofmt -l {file}` configured, a Write
// of badly formatted Go brings gofmt's finding into the next model request,
// with the Write's result; a Write of well formatted Go brings nothing.
func TestClaudeEditChecks(t *testing.T) {
	bad := "package main\n\nfunc  main( ) {\n}\n"
	good := "package main\n\nfunc main() {}\n"
	requireAtreides(t)
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(writeTool("cmd/app/main.go", bad)),
		fa.Call(writeTool("cmd/app/ok.go", good)),
		fa.Text("Done."),
	}})
	p.WriteFile(".atreides/config.yaml", `context:
  checks:
    run:
      - globs: ["**/*.go"]
        command: "gofmt -l {file}"
        fail_on_output: true
`, 0o644)
	p.Atreides("trust", "--yes") // a check runs a program: the user trusts the file
	p.InstallAtreides()
	p.RunClaude("write the program", RunOpts{})

	main := p.Fake.Main()
	if len(main) < 3 {
		t.Fatalf("got %d main requests, want 3", len(main))
	}
	finding := "the check `gofmt -l {file}` on cmd/app/main.go reported"
	if !main[1].Contains(finding) {
		t.Errorf("request after the bad Write lacks the finding %q:\n%s", finding, main[1].LastUserText())
	}
	if n := main[1].CountMessagesContaining(finding); n != 1 {
		t.Errorf("finding in %d messages, want 1", n)
	}
	if main[2].Contains("cmd/app/ok.go reported") {
		t.Error("a clean check said something")
	}
}
