package e2e

import (
	"encoding/json"
	"os"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// The harness self-test runs the same scenarios with a tiny shell-script hook
// instead of atreides. It proves the harness, the fake model and the pinned
// Claude Code still agree on the hook protocol, independently of atreides:
// if TestClaudeHarness passes and TestClaude fails, the fault is in atreides.
//
// The script blocks (exit 2) any Bash command that mentions "victim" or
// "base64", injects the session marker on SessionStart, and on Stop blocks
// once while .selftest-todo exists (not when stop_hook_active is true).
const selftestHook = `#!/bin/sh
in=$(cat)
case "$in" in
*'"hook_event_name":"PreToolUse"'*)
  case "$in" in
  *victim*|*base64*) echo "blocked by atreides harness self-test hook" >&2; exit 2 ;;
  esac ;;
*'"hook_event_name":"SessionStart"'*)
  printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"<!-- atreides:session --> self-test context"}}' ;;
*'"hook_event_name":"Stop"'*)
  case "$in" in
  *'"stop_hook_active":true'*) ;;
  *) if [ -f .selftest-todo ]; then
       printf '{"decision":"block","reason":"Pending todos: %s"}\n' "$(cat .selftest-todo)"
     fi ;;
  esac ;;
esac
exit 0
`

var shellKit = hookKit{
	install:      installShellHook,
	addTodo:      func(p *Project, _, text string) { p.WriteFile(".selftest-todo", text, 0o644) },
	blockMention: "PreToolUse:Bash hook error",
}

func installShellHook(p *Project) {
	p.t.Helper()
	hook := p.Path(".claude/selftest-hook.sh")
	p.WriteFile(".claude/selftest-hook.sh", selftestHook, 0o755)
	handler := []map[string]any{{"hooks": []map[string]any{{"type": "command", "command": hook, "timeout": 10}}}}
	settings := map[string]any{"hooks": map[string]any{
		"PreToolUse":   []map[string]any{{"matcher": "Bash", "hooks": handler[0]["hooks"]}},
		"SessionStart": handler,
		"Stop":         handler,
	}}
	b, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		p.t.Fatal(err)
	}
	p.WriteFile(".claude/settings.json", string(b), 0o644)
	if _, err := os.Stat(hook); err != nil {
		p.t.Fatal(err)
	}
}

// TestClaudeHarness runs every scenario against the self-test shell hook.
func TestClaudeHarness(t *testing.T) {
	requireClaude(t)
	runScenarios(t, shellKit)
}

// TestClaudeHarnessConversations checks the fake model's conversation
// routing against the real CLI: a foreground subagent gets its own script
// (matched on its first user message), `/compact` on a resumed session is
// answered as a summary request, and the pinned Claude Code makes no
// request the fake does not expect (no side requests in -p mode).
func TestClaudeHarnessConversations(t *testing.T) {
	requireClaude(t)
	t.Parallel()
	p := NewProject(t, fa.Script{
		Steps: []fa.Step{
			fa.Call(fa.ToolUse{Name: "Agent", Input: map[string]any{
				"description": "list files", "prompt": "SUBTASK: list the files",
				"subagent_type": "general-purpose", "run_in_background": false}}),
			fa.Text("Main done."),
		},
		Agents: []fa.AgentScript{{
			Name: "sub", Match: fa.FirstUserMatches(`SUBTASK:`),
			Steps: []fa.Step{fa.Call(fa.Bash("touch sub-was-here")), fa.Text("sub finished")},
		}},
		CompactSummary: "SUMMARY-MARKER",
	})
	r := p.RunClaude("delegate a task", RunOpts{})
	p.RunClaude("/compact keep it short", RunOpts{Args: []string{"--resume", r.SessionID()}})
	p.RunClaude("one more question", RunOpts{Args: []string{"--resume", r.SessionID()}})

	p.assertNotError(fa.ToolID("sub", 0, 0))
	p.assertExists("sub-was-here")
	if n := len(p.Fake.RequestsOf(fa.KindAgent)); n != 2 {
		t.Errorf("subagent requests = %d, want 2", n)
	}
	if n := len(p.Fake.RequestsOf(fa.KindCompact)); n != 1 {
		t.Errorf("compact requests = %d, want 1", n)
	}
	main := p.Fake.Main()
	if len(main) == 0 || !main[len(main)-1].Contains("SUMMARY-MARKER") {
		t.Errorf("the request after /compact does not carry the compact summary")
	}
	if side := p.Fake.RequestsOf(fa.KindSide); len(side) != 0 {
		t.Errorf("unexpected side requests from Claude Code %s: %d (first: %.500s)", claudePinned, len(side), side[0].Raw)
	}
}
