package e2e

import (
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestGeminiKeywordModes: "ultrawork" in a Gemini CLI prompt brings the
// mode's block (BeforeAgent's context) into the request the model
// receives; a prompt that only names a file ulw.go brings nothing.
func TestGeminiKeywordModes(t *testing.T) {
	geminiCLI.require(t)
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{fg.Text("On it."), fg.Text("Read it.")}})
	p.writeGeminiHooks()
	p.Run("ultrawork: tidy up the notes")
	p.Run("open ulw.go and summarise it")

	main := p.Fake.Main()
	if len(main) != 2 {
		t.Fatalf("got %d conversation requests, want 2", len(main))
	}
	if !main[0].Contains(ultraworkMark) {
		t.Errorf("the ultrawork prompt's request lacks the mode's block; user texts: %q", main[0].UserTexts())
	}
	if main[1].Contains(ultraworkMark) {
		t.Error("a prompt naming ulw.go brought the ultrawork block")
	}
}

// TestCodexKeywordModes: the same through Codex's UserPromptSubmit.
func TestCodexKeywordModes(t *testing.T) {
	codexCLI.require(t)
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{fo.Text("On it."), fo.Text("Read it.")}})
	p.writeCodexHooks()
	p.Run("ultrawork: tidy up the notes")
	p.Run("open ulw.go and summarise it")

	main := p.Fake.Main()
	if len(main) != 2 {
		t.Fatalf("got %d model requests, want 2", len(main))
	}
	if n := strings.Count(string(main[0].Raw), ultraworkMark); n != 1 {
		t.Errorf("the ultrawork prompt's request has the mode's block %d times, want 1", n)
	}
	if strings.Contains(string(main[1].Raw), ultraworkMark) {
		t.Error("a prompt naming ulw.go brought the ultrawork block")
	}
}

// TestOpenCodeKeywordModes: the same through OpenCode's chat.message, the
// block reaching the model with the prompt's turn.
func TestOpenCodeKeywordModes(t *testing.T) {
	t.Parallel()
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		return fakeopenaichat.Reply{Text: "On it."}
	})
	p.runOC("ultrawork: tidy up the notes")
	mains := p.Fake.MainRequests()
	if len(mains) == 0 {
		t.Fatal("no model request reached the fake")
	}
	if !strings.Contains(unescapeJSON(mains[0].Body()), ultraworkMark) {
		t.Errorf("the ultrawork prompt's request lacks the mode's block:\n%s", p.Fake.Summary())
	}
}

// TestKiloKeywordModes: the same through Kilo Code, which runs OpenCode's
// plugin.
func TestKiloKeywordModes(t *testing.T) {
	t.Parallel()
	p := newKiloProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		return fakeopenaichat.Reply{Text: "On it."}
	})
	p.Atreides("install", "kilo", "--project", "--offline")
	p.runKilo("ultrawork: tidy up the notes")
	mains := p.Fake.MainRequests()
	if len(mains) == 0 {
		t.Fatal("no model request reached the fake")
	}
	if !strings.Contains(unescapeJSON(mains[0].Body()), ultraworkMark) {
		t.Errorf("the ultrawork prompt's request lacks the mode's block:\n%s", p.Fake.Summary())
	}
}

// TestCopilotKeywordModes: the same through Copilot CLI's
// userPromptSubmitted.
func TestCopilotKeywordModes(t *testing.T) {
	copilotCLI.require(t)
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{fa.Text("On it.")}})
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("ultrawork: tidy up the notes")
	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no model request reached the fake")
	}
	if !main[0].Contains(ultraworkMark) {
		t.Errorf("the ultrawork prompt's request lacks the mode's block")
	}
}

// TestQwenKeywordModes: the same through Qwen Code's UserPromptSubmit.
func TestQwenKeywordModes(t *testing.T) {
	qwenCLI.require(t)
	p := newQwenProject(t, qwenTurns(fakeopenaichat.Reply{Text: "On it."}))
	p.writeQwenHooks()
	p.Run("ultrawork: tidy up the notes")
	main := p.Main()
	if len(main) == 0 {
		t.Fatal("no main-agent request reached the fake model")
	}
	if !strings.Contains(unescapeJSON(main[0].Body()), ultraworkMark) {
		t.Errorf("the ultrawork prompt's request lacks the mode's block")
	}
}

// TestClineNoKeywordModes shows what Cline 3.0.65 cannot carry: a keyword
// mode. Its UserPromptSubmit does not fire for a headless prompt and its
// answer is never read (internal/host/cline/doc.go), so atreides installs
// no hook for it, and the ultrawork block reaches no request, not even
// with a tool call's result. When a Cline version carries it, this fails:
// install the hook and move the feature table's cell to a proof.
func TestClineNoKeywordModes(t *testing.T) {
	clineCLI.require(t)
	p := newClineProject(t, replies(fakeopenaichat.Tool("call_1", "run_commands", `{"commands":["true"]}`)))
	p.install()
	p.Run("ultrawork: tidy up the notes")
	main := p.Fake.MainRequests()
	if len(main) < 2 {
		t.Fatalf("got %d model requests, want 2", len(main))
	}
	for i, r := range main {
		if strings.Contains(unescapeJSON(r.Body()), ultraworkMark) {
			t.Errorf("request %d carries the ultrawork block: Cline carries keyword modes now", i)
		}
	}
}
