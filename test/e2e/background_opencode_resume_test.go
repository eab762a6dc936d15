package e2e

import (
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestBackgroundResumeOpenCode: delegate_task's resume in the real
// OpenCode. The first task runs as a child session; the resume prompts
// that same child session again (the plugin's launch with its session),
// so the model sees the first exchange before the new prompt, and the
// answer reaches the parent. On main a resume on OpenCode was refused:
// it has no headless resume command.
func TestBackgroundResumeOpenCode(t *testing.T) {
	t.Parallel()
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		if first := firstUser(r); strings.Contains(first, "Remember the word PELICAN-77") {
			if strings.Contains(r.Body(), "Which word did I ask you to remember") {
				return fakeopenaichat.Reply{Text: "SECOND-ANSWER: the word was PELICAN-77"}
			}
			return fakeopenaichat.Reply{Text: "FIRST-ANSWER: remembered"}
		}
		// The plugin runs a child between the parent's tool calls: the
		// parent launches in the background and then waits.
		switch countToolResults(r) {
		case 0:
			return fakeopenaichat.Reply{Calls: []fakeopenaichat.Call{{ID: "call_first", Name: "atreides_delegate_task",
				Arguments: `{"agent":"explore","description":"remember","prompt":"Remember the word PELICAN-77.","run_in_background":true}`}}}
		case 1:
			return fakeopenaichat.Reply{Calls: []fakeopenaichat.Call{{ID: "call_wait1", Name: "atreides_background_output", Arguments: `{"task_id":"bg-1","wait":120}`}}}
		case 2:
			return fakeopenaichat.Reply{Calls: []fakeopenaichat.Call{{ID: "call_resume", Name: "atreides_delegate_task",
				Arguments: `{"resume":"bg-1","prompt":"Which word did I ask you to remember?","run_in_background":true}`}}}
		case 3:
			return fakeopenaichat.Reply{Calls: []fakeopenaichat.Call{{ID: "call_wait2", Name: "atreides_background_output", Arguments: `{"task_id":"bg-2","wait":120}`}}}
		}
		return fakeopenaichat.Reply{Text: "Done."}
	})
	p.WriteFile(".atreides/config.yaml", "background:\n  opencode:\n    poll_ms: 300\n    stable_ms: 1000\n")
	p.runOC("Remember a word in the background, then ask for it again.")
	defer func() {
		if t.Failed() {
			t.Logf("atreides bg list:\n%s", p.Atreides("bg", "list"))
			t.Logf("requests:\n%s", p.Fake.Summary())
		}
	}()
	if got := p.toolResult("call_wait1"); !strings.Contains(got, "FIRST-ANSWER") {
		t.Fatalf("the first task: %q", got)
	}
	if got := p.toolResult("call_resume"); !strings.Contains(got, "bg-2") {
		t.Fatalf("the resume was not launched: %q", got)
	}
	if got := p.toolResult("call_wait2"); !strings.Contains(got, "SECOND-ANSWER") {
		t.Errorf("the resumed task: %q", got)
	}
}
