package e2e

import (
	"regexp"
	"slices"
	"strconv"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// TestClaudeContextMonitor: the fake model reports its context filling up
// (input_tokens on each answer, which Claude Code writes to the
// transcript); the monitor's note reaches the model once when it crosses
// 70% of the (default 200,000-token) window and once at 85%, with
// Claude Code's compaction command, and never again. Claude Code writes
// its transcript asynchronously, so the figure a PostToolUse hook reads
// may be one answer old: which answer's tool brings a note may vary by
// one, what the notes say may not.
func TestClaudeContextMonitor(t *testing.T) {
	requireAtreides(t)
	step := func(cmd string, tokens int) fa.Step {
		s := fa.Call(fa.Bash(cmd))
		s.InputTokens = tokens
		return s
	}
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		step("echo one", 0),         // 120 tokens
		step("echo two", 145_000),   // 72%
		step("echo three", 150_000), // 75%: said already
		step("echo four", 172_000),  // 86%
		step("echo five", 180_000),  // 90%: said already
		step("echo six", 181_000),   // 90%: said already
		fa.Text("done"),
	}})
	p.InstallAtreides()
	p.RunClaude("fill the context", RunOpts{})

	main := p.Fake.Main()
	if len(main) != 7 {
		t.Fatalf("got %d main requests, want 7", len(main))
	}
	note := regexp.MustCompile(`context window is (\d+)% full`)
	var seen []int // the percentages of the notes, in the order they came
	for i, r := range main {
		var got []int
		for _, m := range r.Msg.Messages {
			for _, sm := range note.FindAllStringSubmatch(m.Content.Text(), -1) {
				n, _ := strconv.Atoi(sm[1])
				got = append(got, n)
			}
		}
		if len(got) < len(seen) || !slices.Equal(got[:len(seen)], seen) {
			t.Errorf("request %d: notes %v, want the earlier %v kept as they were", i, got, seen)
		}
		seen = got
	}
	if len(seen) != 2 || seen[0] < 70 || seen[0] >= 85 || seen[1] < 85 {
		t.Fatalf("notes at %v%%, want one at 70-84%% and one at 85%% or more", seen)
	}
	last := main[len(main)-1]
	for _, s := range []string{"record each decision", "atreides anchor add --kind", "Wrap up now", "(/compact)"} {
		if n := last.CountMessagesContaining(s); n != 1 {
			t.Errorf("%q is in %d messages, want 1", s, n)
		}
	}
}
