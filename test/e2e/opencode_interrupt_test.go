package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestOpenCodeEscIsAnInterrupt: in the real OpenCode, the user stops a
// turn (the TUI's Esc is the session's abort, here through the HTTP API)
// while the session has an open todo: OpenCode ends the turn with
// MessageAbortedError and goes idle, and atreides takes that idle as the
// user's interrupt, so no continuation prompt sends the agent back to
// work; TestOpenCodeTodoContinuation shows the same idle without the Esc
// continuing.
func TestOpenCodeEscIsAnInterrupt(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		if strings.Contains(r.LastUser(), "Write the report") {
			// The model is slow: the user gives up on the turn.
			select {
			case <-release:
			case <-time.After(runTimeout):
			}
		}
		return fakeopenaichat.Reply{Text: "Stopping here."}
	})
	srv := p.serveOC()
	sid := srv.newSession()
	p.Atreides("todo", "add", "--session", sid, "write the report")
	srv.promptIn(sid, "Write the report.")
	deadline := time.Now().Add(60 * time.Second)
	for !slowRequestSeen(p.Fake) {
		if time.Now().After(deadline) {
			t.Fatalf("the prompt never reached the model:\n%s", p.Fake.Summary())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := srv.do("POST", "/session/"+sid+"/abort", map[string]any{}, nil, 30*time.Second); err != nil {
		t.Fatalf("abort: %v", err)
	}
	srv.waitQuiet(4*time.Second, 75*time.Second)
	for _, r := range p.Fake.MainRequests() {
		if strings.Contains(r.LastUser(), "still open") {
			t.Errorf("a continuation prompt followed the user's Esc (request #%d):\n%s", r.Seq, p.Fake.Summary())
		}
	}
	// The turn ended the way the TUI's Esc ends it.
	var msgs []struct {
		Info struct {
			Role  string `json:"role"`
			Error *struct {
				Name string `json:"name"`
			} `json:"error"`
		} `json:"info"`
	}
	if err := srv.do("GET", "/session/"+sid+"/message", nil, &msgs, 30*time.Second); err != nil {
		t.Fatalf("messages: %v", err)
	}
	aborted := false
	for _, m := range msgs {
		aborted = aborted || m.Info.Role == "assistant" && m.Info.Error != nil && m.Info.Error.Name == "MessageAbortedError"
	}
	if !aborted {
		t.Errorf("no assistant message ended with MessageAbortedError: %+v", msgs)
	}
}

// slowRequestSeen reports whether the fake got the turn's request.
func slowRequestSeen(f *fakeopenaichat.Server) bool {
	for _, r := range f.MainRequests() {
		if strings.Contains(r.LastUser(), "Write the report") {
			return true
		}
	}
	return false
}
