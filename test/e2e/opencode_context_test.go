package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestOpenCodeConversationContext: context registered where OpenCode
// cannot carry it (the prompt's chat.message: here the "remember:" anchor's
// acknowledgement) reaches the model through the messages transform, as a
// part of the prompt's user message, exactly once in every request of the
// turn (OpenCode does not keep what a transform adds: the plugin adds it
// again, never twice); the session context stays in the system prompt.
func TestOpenCodeConversationContext(t *testing.T) {
	t.Parallel()
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		if countToolResults(r) == 0 {
			return fakeopenaichat.Bash("call_ls", "ls")
		}
		return fakeopenaichat.Reply{Text: "Done."}
	})
	p.runOC("remember: the cache lives in bbolt\n\nThen list the files.")

	const ack = "kept as anchor #1"
	mains := p.Fake.MainRequests()
	if len(mains) < 2 {
		t.Fatalf("%d main requests, want 2:\n%s", len(mains), p.Fake.Summary())
	}
	for _, r := range mains {
		if n := strings.Count(r.Body(), ack); n != 1 {
			t.Errorf("request #%d carries %q %d times, want once:\n%s", r.Seq, ack, n, r.Body())
		}
		if strings.Contains(r.System(), ack) {
			t.Errorf("request #%d: the acknowledgement is in the system prompt, not the conversation", r.Seq)
		}
		if !userSays(r, ack) {
			t.Errorf("request #%d: the acknowledgement is not in a user message", r.Seq)
		}
		if !strings.Contains(r.System(), session.Marker) {
			t.Errorf("request #%d: system prompt without %s", r.Seq, session.Marker)
		}
	}
}

// userSays reports whether a user message of the request contains s.
func userSays(r *fakeopenaichat.Request, s string) bool {
	for _, m := range r.Messages {
		if m.Role == "user" && strings.Contains(m.Content, s) {
			return true
		}
	}
	return false
}

// TestOpenCodeIdentityPrefix: with session.identity.prefix set, the lead
// agent's finished text is normalized to begin with "[Muad'Dib]: " once,
// whatever the model wrote (here a bold tag, then none).
func TestOpenCodeIdentityPrefix(t *testing.T) {
	t.Parallel()
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		if countToolResults(r) == 0 {
			return fakeopenaichat.Bash("call_ls", "ls")
		}
		return fakeopenaichat.Reply{Text: "**[Muad'Dib]:** Listed."}
	})
	p.WriteFile(".atreides/config.yaml", "version: 1\nsession:\n  identity:\n    prefix: true\n")
	events, _ := p.runOC("List the files.")
	var texts []string
	for _, e := range events {
		if e.Type == "text" && e.Part.Text != "" {
			texts = append(texts, e.Part.Text)
		}
	}
	if len(texts) == 0 || texts[len(texts)-1] != "[Muad'Dib]: Listed." {
		t.Errorf("finished texts %q, want the last to be %q", texts, "[Muad'Dib]: Listed.")
	}
}

// TestOpenCodePlacedContextAfterRestart: context placed into a
// conversation (the "remember:" acknowledgement) is still in every
// request of that session when a new OpenCode process, with a new
// atreides serve, continues it (`opencode run -s`): the placed context is
// kept in the store, not in the old serve's memory.
func TestOpenCodePlacedContextAfterRestart(t *testing.T) {
	t.Parallel()
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		return fakeopenaichat.Reply{Text: "Noted."}
	})
	const ack = "kept as anchor #1"
	_, run := p.runOC("remember: the cache lives in bbolt")
	m := regexp.MustCompile(`"sessionID":"(ses_[A-Za-z0-9]+)"`).FindStringSubmatch(run.Stdout)
	if m == nil {
		t.Fatalf("no session id in the first run's output:\n%s", run.Stdout)
	}
	before := len(p.Fake.MainRequests())
	if before == 0 || !strings.Contains(p.Fake.MainRequests()[0].Body(), ack) {
		t.Fatalf("the first run's request lacks %q:\n%s", ack, p.Fake.Summary())
	}
	p.runOC("Where does the cache live?", "-s", m[1])
	later := p.Fake.MainRequests()[before:]
	if len(later) == 0 {
		t.Fatalf("the second run sent no request:\n%s", p.Fake.Summary())
	}
	for _, r := range later {
		if n := strings.Count(r.Body(), ack); n != 1 {
			t.Errorf("request #%d of the continued session carries %q %d times, want once", r.Seq, ack, n)
		}
	}
}
