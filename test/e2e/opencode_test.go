package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestOpenCodeGuard: with the atreides plugin loaded by the real OpenCode,
// `rm -rf ~/victim` is blocked (the model is told why and the directory
// survives), a recursive delete inside the project and an ordinary command
// run, and every main request's system prompt carries atreides's session
// context.
func TestOpenCodeGuard(t *testing.T) {
	t.Parallel()
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		switch countToolResults(r) {
		case 0:
			return fakeopenaichat.Bash("call_rm", "rm -rf ~/victim")
		case 1:
			return fakeopenaichat.Bash("call_ok", "mkdir -p build/out && rm -rf build && echo allowed > ok.txt")
		}
		return fakeopenaichat.Reply{Text: "Done."}
	})
	p.Victim("../home/victim")
	p.runOC("Clean up my home directory, then build.")

	if got := p.toolResult("call_rm"); !strings.Contains(strings.ToLower(got), "rm") || strings.Contains(got, "precious") {
		t.Errorf("the model was not told the rm was blocked: %q", got)
	}
	p.assertExists("../home/victim/precious.txt")
	if got := p.toolResult("call_ok"); strings.Contains(got, "blocked") {
		t.Errorf("the allowed command was blocked: %q", got)
	}
	if !p.exists("ok.txt") || p.exists("build") {
		t.Errorf("the allowed command did not run: ok.txt %v, build %v", p.exists("ok.txt"), p.exists("build"))
	}
	mains := p.Fake.MainRequests()
	if len(mains) < 3 {
		t.Fatalf("%d main requests, want 3:\n%s", len(mains), p.Fake.Summary())
	}
	for _, r := range mains {
		if !strings.Contains(r.System(), session.Marker) {
			t.Errorf("request #%d: system prompt without %s", r.Seq, session.Marker)
		}
	}
}

// TestOpenCodeTodoContinuation: an open atreides todo keeps the session
// going when it goes idle (a continuation prompt listing it), and once the
// todo is done the session is let go. It drives `opencode serve` over HTTP
// (the interactive mode): `opencode run` disposes the instance as soon as
// the session goes idle, before any plugin can prompt it again.
func TestOpenCodeTodoContinuation(t *testing.T) {
	t.Parallel()
	var p *ocProject
	p = newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		last := r.LastUser()
		switch {
		case strings.Contains(last, "still open") && countToolResults(r) == 0:
			return fakeopenaichat.Bash("call_done", p.atreides+" todo done 1")
		case countToolResults(r) > 0:
			return fakeopenaichat.Reply{Text: "The report is written and the todo is done."}
		}
		return fakeopenaichat.Reply{Text: "I looked around; stopping here."}
	})
	srv := p.serveOC()
	// The todo is the session's own, as its agent would add it: only a
	// session's own todos hold it (docs/work-items.md).
	sid := srv.newSession()
	p.Atreides("todo", "add", "--session", sid, "write the report")
	srv.promptIn(sid, "Have a look at the project.")
	srv.waitQuiet(3*time.Second, 75*time.Second)
	defer checkCompaction(t, p, srv, sid)

	var cont []*fakeopenaichat.Request
	for _, r := range p.Fake.MainRequests() {
		if strings.Contains(r.LastUser(), "still open") && strings.Contains(r.LastUser(), "write the report") {
			cont = append(cont, r)
		}
	}
	if len(cont) == 0 {
		t.Fatalf("no continuation prompt reached the model:\n%s", p.Fake.Summary())
	}
	all := p.Fake.MainRequests()
	n := 0
	for _, m := range all[len(all)-1].Messages {
		if m.Role == "user" && strings.Contains(m.Content, "still open") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d continuation prompts in the conversation, want 1:\n%s", n, p.Fake.Summary())
	}
	if out := p.Atreides("todo", "list", "--all"); !strings.Contains(out, "1\tdone\t\twrite the report") {
		t.Errorf("todo not done:\n%s", out)
	}
	// Loop-safe: once done, no further continuation.
	mains := p.Fake.MainRequests()
	if last := mains[len(mains)-1]; strings.Contains(last.LastUser(), "still open") && countToolResults(last) == 0 {
		t.Errorf("the loop did not stop:\n%s", p.Fake.Summary())
	}
}

// checkCompaction compacts the session through the HTTP API (what the TUI's
// /compact does) and checks that the compaction request carried atreides's
// state block, and that the next turn carries it too, in the conversation
// (anchored to the turn's message), with the session context in the
// system prompt.
func checkCompaction(t *testing.T, p *ocProject, srv *ocServer, sid string) {
	t.Helper()
	if t.Failed() {
		return
	}
	before := len(p.Fake.Requests())
	if err := srv.do("POST", "/session/"+sid+"/summarize", map[string]any{"providerID": "fake", "modelID": "fake-model"}, nil, 60*time.Second); err != nil {
		t.Fatalf("summarize: %v", err)
	}
	var compaction *fakeopenaichat.Request
	for _, r := range p.Fake.Requests()[before:] {
		if !r.Main() && strings.Contains(r.Body(), session.StateOpen) {
			compaction = r
		}
	}
	if compaction == nil {
		t.Fatalf("no compaction request carried %s:\n%s", session.StateOpen, p.Fake.Summary())
	}
	before = len(p.Fake.Requests())
	body := map[string]any{"parts": []any{map[string]any{"type": "text", "text": "What is the state?"}}}
	if err := srv.do("POST", "/session/"+sid+"/prompt_async", body, nil, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	srv.waitQuiet(2*time.Second, 60*time.Second)
	found := false
	for _, r := range p.Fake.Requests()[before:] {
		if r.Main() && userSays(r, session.StateOpen) && strings.Contains(r.System(), session.Marker) {
			found = true
		}
	}
	if !found {
		t.Errorf("no request after the compaction carried the state block in its conversation:\n%s", p.Fake.Summary())
	}
}
