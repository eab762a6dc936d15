package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestOpenCodeBackground: in the real OpenCode, the model launches two
// background tasks through the atreides plugin tools with a concurrency
// limit of 1; the second waits while the first runs as a child session;
// both complete (the fake answers the children, recognised by their
// prompt); the parent gets one notification naming both in a later
// request, and atreides_background_output returns a child's last answer.
func TestOpenCodeBackground(t *testing.T) {
	t.Parallel()
	task := func(id, what string) fakeopenaichat.Call {
		args, _ := json.Marshal(map[string]string{"description": what + " search", "prompt": "Find the " + what + " marker.", "agent": "explore"})
		return fakeopenaichat.Call{ID: id, Name: "atreides_background_task", Arguments: string(args)}
	}
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		switch first := firstUser(r); {
		case strings.Contains(first, "Find the alpha marker"):
			return fakeopenaichat.Reply{Text: "ALPHA-ANSWER: the alpha marker is in a.txt"}
		case strings.Contains(first, "Find the beta marker"):
			return fakeopenaichat.Reply{Text: "BETA-ANSWER: the beta marker is in b.txt"}
		}
		switch countToolResults(r) {
		case 0:
			return fakeopenaichat.Reply{Calls: []fakeopenaichat.Call{task("call_t1", "alpha"), task("call_t2", "beta")}}
		case 2:
			return fakeopenaichat.Reply{Calls: []fakeopenaichat.Call{{ID: "call_wait", Name: "atreides_background_output", Arguments: `{"wait":120}`}}}
		}
		return fakeopenaichat.Reply{Text: "Both searches are done."}
	})
	p.WriteFile(".atreides/config.yaml", "background:\n  concurrency:\n    default: 1\n  opencode:\n    poll_ms: 300\n    stable_ms: 1000\n")
	p.runOC("Search for the two markers in the background.")
	defer func() {
		if t.Failed() {
			t.Logf("atreides bg list:\n%s", p.Atreides("bg", "list"))
		}
	}()

	// OpenCode runs the two calls of one reply concurrently, so either may
	// reach atreides first: one starts as bg-1, the other queues as bg-2.
	started, queued := "ALPHA-ANSWER", p.toolResult("call_t2")
	if first := p.toolResult("call_t1"); strings.Contains(first, "bg-2") {
		started, queued = "BETA-ANSWER", first
	}
	if !strings.Contains(queued, "bg-2") || !strings.Contains(strings.ToLower(queued), "queue") {
		t.Errorf("the second task was not queued behind the first: %q", queued)
	}
	if got := p.toolResult("call_wait"); !strings.Contains(got, started) {
		t.Errorf("background_output did not return the first task's last answer (%s): %q", started, got)
	}
	var children []int
	var notified []*fakeopenaichat.Request
	for _, r := range p.Fake.Requests() {
		if f := firstUser(r); strings.Contains(f, "alpha marker") || strings.Contains(f, "beta marker") {
			children = append(children, r.Seq)
			continue
		}
		if strings.Contains(r.Body(), "your background task(s) ended") {
			notified = append(notified, r)
		}
	}
	if len(children) < 2 {
		t.Fatalf("the children did not both run (requests %v):\n%s", children, p.Fake.Summary())
	}
	if len(notified) == 0 {
		t.Fatalf("no request carried the notification:\n%s", p.Fake.Summary())
	}
	first := notified[0].Body()
	if !strings.Contains(first, "bg-1") || !strings.Contains(first, "bg-2") || strings.Count(first, "your background task(s) ended") != 1 {
		t.Errorf("the notification does not name both tasks once:\n%s", first)
	}
}

// firstUser is the first user message of a request (a child session's
// prompt; OpenCode's title requests quote it too, but carry no tools).
func firstUser(r *fakeopenaichat.Request) string {
	if !r.Main() {
		return ""
	}
	for _, m := range r.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}
