package delegation

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
)

// captured are Claude Code 2.1.332's hook payloads of a delegation to
// general-purpose (agent aac39166ef66973ea) and its Bash call.
const captured = "../host/hosttest/testdata/host-samples/claude-code/captured/v2.1.332/04-subagent-compact/hooks/"

func (f *fixture) payload(name string) *event.Event {
	f.t.Helper()
	data, err := os.ReadFile(filepath.Join(captured, name+".json"))
	if err != nil {
		f.t.Fatal(err)
	}
	ev, err := claude.Decode(data, f.root, f.env.now)
	if err != nil {
		f.t.Fatalf("%s: %v", name, err)
	}
	return ev
}

// Claude Code's own payloads: a general-purpose subagent (implementation,
// 120 minutes) past its deadline has its Bash call refused in Claude
// Code's answer, and the main agent's next prompt carries the report with
// how to resume it.
func TestPastDeadlineClaudePayloads(t *testing.T) {
	f := newFixture(t)
	f.opts = FromConfig(config.Builtin())
	f.run(f.payload("PreToolUse-1"))
	f.run(f.payload("SubagentStart-1"))
	f.env.now = f.env.now.Add(119 * time.Minute)
	if d := f.run(f.payload("PreToolUse-2")); d.Verdict == event.Deny {
		t.Fatalf("refused before its deadline: %q", d.Reason)
	}
	f.env.now = f.env.now.Add(2 * time.Minute)
	bash := f.payload("PreToolUse-2")
	d := f.run(bash)
	ans := string(claude.Encode(bash, d).Stdout)
	if !strings.Contains(ans, `"permissionDecision":"deny"`) || !strings.Contains(ans, "past your deadline of 2h0m0s") {
		t.Fatalf("answer: %s", ans)
	}
	prompt := f.payload("UserPromptSubmit-2")
	ctx := f.run(prompt).ContextText()
	for _, want := range []string{"subagent aac39166ef66973ea (general-purpose) is still running", "implementation operation's time", `the SendMessage tool with to: "aac39166ef66973ea"`} {
		if !strings.Contains(ctx, want) {
			t.Errorf("main agent not told %q: %q", want, ctx)
		}
	}
}
