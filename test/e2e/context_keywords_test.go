package e2e

import (
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// ultraworkMark is a phrase of the built-in ultrawork mode's block (and not
// of any prompt below).
const ultraworkMark = "Hold the work to this standard"

// verifyMark opens the verify-before-stop nudge.
const verifyMark = "files changed since the last test, build or lint run"

// TestClaudeKeywordModes: "ultrawork" in a prompt brings the mode's block
// into the request the model receives, once per session (a second prompt
// naming it adds nothing); a prompt that only names a file ulw.go brings
// nothing.
func TestClaudeKeywordModes(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{Steps: []fa.Step{fa.Text("On it."), fa.Text("Still on it."), fa.Text("Read it.")}})
	p.InstallAtreides()
	sid := p.RunClaude("ultrawork: tidy up the notes", RunOpts{}).SessionID()
	p.RunClaude("ulw, and the changelog too", RunOpts{Args: []string{"--resume", sid}})
	p.RunClaude("open ulw.go and summarise it", RunOpts{})

	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d main requests, want 3", len(main))
	}
	if n := main[0].CountMessagesContaining(ultraworkMark); n != 1 {
		t.Errorf("first ultrawork prompt: the mode's block is in %d messages, want 1", n)
	}
	if n := main[1].CountMessagesContaining(ultraworkMark); n != 1 {
		t.Errorf("second prompt naming ulw in the same session: the block is in %d messages, want 1 (the first, not repeated)", n)
	}
	if main[2].Contains(ultraworkMark) {
		t.Error("a prompt naming ulw.go brought the ultrawork block")
	}
}

// TestClaudeVerifyBeforeStop: the model writes a file and stops; the stop
// is held back once with the nudge to verify. Run again it verifies (a make
// test run, failing or not) and stops: let go. Or it stops again without
// verifying: let go too (once per batch).
func TestClaudeVerifyBeforeStop(t *testing.T) {
	requireAtreides(t)
	t.Run("VerifiesThenStops", func(t *testing.T) {
		t.Parallel()
		p := NewProject(t, fa.Script{Steps: []fa.Step{
			fa.Call(writeTool("main.go", "package main\n")),
			fa.Text("Done."),
			fa.Call(fa.Bash("make test")),
			fa.Text("Verified."),
		}})
		p.InstallAtreides()
		p.RunClaude("add a main package", RunOpts{})
		main := p.Fake.Main()
		if len(main) != 4 {
			t.Fatalf("got %d main requests, want 4 (write, blocked stop, verify, clean stop)", len(main))
		}
		if main[1].Contains(verifyMark) {
			t.Error("the nudge came before the stop")
		}
		if r := main[2]; !r.Contains(verifyMark) || !r.Contains("main.go") || r.CountMessagesContaining("Stop hook feedback") != 1 {
			t.Errorf("the request after the first stop lacks the one nudge naming main.go")
		}
		if n := main[3].CountMessagesContaining("Stop hook feedback"); n != 1 {
			t.Errorf("after verifying: %d stop hook feedback messages, want 1 (no second block)", n)
		}
	})
	t.Run("StopsAgainLetGo", func(t *testing.T) {
		t.Parallel()
		p := NewProject(t, fa.Script{Steps: []fa.Step{
			fa.Call(writeTool("main.go", "package main\n")),
			fa.Text("Done."),
			fa.Text("There are no tests to run yet."),
		}})
		p.InstallAtreides()
		p.RunClaude("add a main package", RunOpts{})
		main := p.Fake.Main()
		if len(main) != 3 {
			t.Fatalf("got %d main requests, want 3 (write, blocked stop, let go)", len(main))
		}
		if !main[2].Contains(verifyMark) {
			t.Error("the stop after the write was not nudged")
		}
	})
}
