package e2e

import (
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
)

// TestClaudeContextTiers: the real Claude Code with the project's context
// files by tier (.atreides/context, what /at-meta writes): the session's
// minimal set reaches the lead agent's first request; /at-research brings
// its command's set into that request as the command runs; the agent the
// lead starts (atreides-explore) gets its own set at SubagentStart, which
// the lead never sees.
func TestClaudeContextTiers(t *testing.T) {
	requireAtreides(t)
	const (
		coreMark    = "TIER-CORE-91c2: a widget is a unit of sale."
		commandMark = "TIER-RESEARCH-5be0: cite file:line."
		agentMark   = "TIER-EXPLORE-77d1: search pkg/ first."
	)
	explore := fa.ToolUse{Name: "Agent", Input: map[string]any{
		"description": "find widgets", "prompt": "SEARCH: where are widgets priced?",
		"subagent_type": "atreides-explore", "run_in_background": false}}
	p := NewProject(t, fa.Script{
		Steps: []fa.Step{fa.Call(explore), fa.Text("Widgets are priced in pkg/price.")},
		Agents: []fa.AgentScript{{
			Name: "atreides-explore", Match: fa.FirstUserMatches(`SEARCH:`),
			Steps: []fa.Step{fa.Text("pkg/price/price.go:12")},
		}},
	})
	p.WriteFile(".atreides/context/core/glossary.md", coreMark+"\n", 0o644)
	p.WriteFile(".atreides/context/core/commands/research/howto.md", commandMark+"\n", 0o644)
	p.WriteFile(".atreides/context/project/agents/explore/domain.md", agentMark+"\n", 0o644)
	p.InstallAtreides()
	p.RunClaude("/at-research 1", RunOpts{})

	main := p.Fake.Main()
	if len(main) < 2 {
		t.Fatalf("got %d main requests, want 2; requests:\n%s", len(main), p.Fake.Summary())
	}
	if !main[0].Contains(coreMark) {
		t.Error("the first request lacks the session's minimal set")
	}
	if !main[0].Contains(commandMark) {
		t.Error("the /at-research request lacks its command's set")
	}
	if main[1].Contains(agentMark) {
		t.Error("the explore agent's set leaked into the lead's context")
	}
	var sub *fa.Request
	for _, r := range p.Fake.RequestsOf(fa.KindAgent) {
		if r.Agent == "atreides-explore" {
			sub = r
			break
		}
	}
	if sub == nil {
		t.Fatalf("no request of the explore subagent; requests:\n%s", p.Fake.Summary())
	}
	if !sub.Contains(agentMark) {
		t.Error("the explore subagent's request lacks its set")
	}
}

// TestGeminiContextTiers: the real Gemini CLI: the session's minimal set
// reaches the first request (SessionStart), and /at-research, a custom
// command, brings its command's set. Gemini 0.61.0 in -p mode sends the
// typed "/at-research 1" on as the prompt, and hands BeforeAgent that text
// after the SessionStart context it put before it (<hook_context>).
func TestGeminiContextTiers(t *testing.T) {
	const (
		coreMark    = "TIER-CORE-91c2: a widget is a unit of sale."
		commandMark = "TIER-RESEARCH-5be0: cite file:line."
	)
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{fg.Text("On it.")}})
	p.WriteFile(".atreides/context/core/glossary.md", coreMark+"\n")
	p.WriteFile(".atreides/context/core/commands/research/howto.md", commandMark+"\n")
	p.Atreides("install", "gemini")
	p.Run("/at-research 1")
	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no conversation request reached the fake model")
	}
	if !main[0].Contains(coreMark) {
		t.Errorf("the first request lacks the session's minimal set; user texts: %q", main[0].UserTexts())
	}
	if !main[0].Contains(commandMark) {
		t.Errorf("the /at-research request lacks its command's set; user texts: %q", main[0].UserTexts())
	}
}

// TestOpenCodeContextTiers: the real OpenCode with atreides's plugin: the
// session's minimal set is in every request's system prompt (standing
// context, which OpenCode rebuilds per request), and /at-research (run
// with --command; OpenCode expands the command's text before the plugin
// sees the message) brings its command's set into the conversation.
func TestOpenCodeContextTiers(t *testing.T) {
	t.Parallel()
	const (
		coreMark    = "TIER-CORE-91c2: a widget is a unit of sale."
		commandMark = "TIER-RESEARCH-5be0: cite file:line."
	)
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		return fakeopenaichat.Reply{Text: "On it."}
	})
	p.WriteFile(".atreides/context/core/glossary.md", coreMark+"\n")
	p.WriteFile(".atreides/context/core/commands/research/howto.md", commandMark+"\n")
	p.runOC("", "--command", "at-research", "1")
	mains := p.Fake.MainRequests()
	if len(mains) == 0 {
		t.Fatalf("no main request:\n%s", p.Fake.Summary())
	}
	r := mains[0]
	if !strings.Contains(r.System(), coreMark) {
		t.Errorf("the system prompt lacks the session's minimal set:\n%s", r.System())
	}
	if !userSays(r, commandMark) {
		t.Errorf("no user message carries the command's set:\n%s", r.Body())
	}
}

// TestQwenContextTiers: the real Qwen Code: the session's minimal set
// reaches the first request (SessionStart), and /at-research brings its
// command's set (UserPromptSubmit).
func TestQwenContextTiers(t *testing.T) {
	const (
		coreMark    = "TIER-CORE-91c2: a widget is a unit of sale."
		commandMark = "TIER-RESEARCH-5be0: cite file:line."
	)
	p := newQwenProject(t, qwenTurns(fakeopenaichat.Reply{Text: "On it."}))
	p.WriteFile(".atreides/context/core/glossary.md", coreMark+"\n")
	p.WriteFile(".atreides/context/core/commands/research/howto.md", commandMark+"\n")
	p.Atreides("install", "qwen")
	p.Run("/at-research 1")
	main := p.Main()
	if len(main) == 0 {
		t.Fatal("no main-agent request reached the fake model")
	}
	if !strings.Contains(main[0].Body(), coreMark) {
		t.Error("the first request lacks the session's minimal set")
	}
	if !strings.Contains(main[0].Body(), commandMark) {
		t.Errorf("the /at-research request lacks its command's set:\n%s", main[0].Body())
	}
}

// TestCodexContextTiers: the real Codex: the session's minimal set
// reaches the first request (SessionStart), and a prompt that runs
// /at-research brings its command's set (UserPromptSubmit). Codex has no
// custom commands atreides installs; the prompt as typed is what its hook
// sees.
func TestCodexContextTiers(t *testing.T) {
	const (
		coreMark    = "TIER-CORE-91c2: a widget is a unit of sale."
		commandMark = "TIER-RESEARCH-5be0: cite file:line."
	)
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{fo.Text("On it.")}})
	p.WriteFile(".atreides/context/core/glossary.md", coreMark+"\n")
	p.WriteFile(".atreides/context/core/commands/research/howto.md", commandMark+"\n")
	p.writeCodexHooks()
	p.Run("/at-research 1")
	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no model request reached the fake")
	}
	raw := string(main[0].Raw)
	if !strings.Contains(raw, coreMark) {
		t.Error("the first request lacks the session's minimal set")
	}
	if !strings.Contains(raw, commandMark) {
		t.Error("the /at-research request lacks its command's set")
	}
}

// TestCopilotContextTiers: the real GitHub Copilot CLI: the session's
// minimal set reaches the first request (sessionStart), and a prompt
// that runs /at-research brings its command's set (userPromptSubmitted).
func TestCopilotContextTiers(t *testing.T) {
	const (
		coreMark    = "TIER-CORE-91c2: a widget is a unit of sale."
		commandMark = "TIER-RESEARCH-5be0: cite file:line."
	)
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{fa.Text("On it.")}})
	p.WriteFile(".atreides/context/core/glossary.md", coreMark+"\n")
	p.WriteFile(".atreides/context/core/commands/research/howto.md", commandMark+"\n")
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("/at-research 1")
	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no model request reached the fake")
	}
	if !main[0].Contains(coreMark) {
		t.Error("the first request lacks the session's minimal set")
	}
	if !main[0].Contains(commandMark) {
		t.Error("the /at-research request lacks its command's set")
	}
}

// TestCodexAgentTier: the real Codex starts a roster agent
// (spawn_agent with agent_type atreides-explore); its SubagentStart
// brings the agent's set into the agent's own requests, and the lead's
// first request has none of it.
func TestCodexAgentTier(t *testing.T) {
	const agentMark = "TIER-EXPLORE-77d1: search pkg/ first."
	spawn := fo.Step{Call: &fo.Call{Name: "spawn_agent", Namespace: "multi_agent_v1",
		Arguments: map[string]any{"agent_type": "atreides-explore", "message": "look around"}}}
	// After the spawn the lead waits (at most 20 s) until atreides's audit
	// trail has the agent's SubagentStart, then a second, so that the
	// agent's first request is made before the run ends; the agent's
	// requests take the next steps of the same script (any answer will do).
	waitStart := `for i in $(seq 100); do grep -q subagent_start .atreides/audit.jsonl 2>/dev/null && break; sleep 0.2; done; sleep 1`
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{spawn, fo.Exec(waitStart), fo.Text("Done."), fo.Text("Done."), fo.Text("Done.")}})
	p.WriteFile(".atreides/context/project/agents/explore/domain.md", agentMark+"\n")
	p.writeCodexHooks()
	p.Run("survey the project")

	// The lead's requests have the user's prompt; the agent's, the
	// message spawn_agent gave it.
	lead, agent := 0, 0
	for _, r := range p.Fake.Main() {
		has := strings.Contains(string(r.Raw), agentMark)
		switch {
		case len(r.MessagesContaining("user", "survey the project")) > 0:
			lead++
			if has {
				t.Errorf("request #%d of the lead carries the agent's set", r.Seq)
			}
		case len(r.MessagesContaining("user", "look around")) > 0:
			agent++
			if !has {
				t.Errorf("request #%d of the explore agent lacks its set", r.Seq)
			}
		}
	}
	if lead == 0 || agent == 0 {
		t.Errorf("%d requests of the lead, %d of the agent; want both:\n%s", lead, agent, p.Fake.Summary())
	}
}
