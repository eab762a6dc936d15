package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestRosterClaudeStilgar: after install, three failures of the same
// command bring the escalation naming stilgar as Claude Code starts it;
// the model's Agent call with subagent_type "atreides-stilgar" runs the installed
// agent file (the subagent's request carries Stilgar's prompt), and the
// skill attached to stilgar in the configuration reaches that request
// through SubagentStart.
func TestRosterClaudeStilgar(t *testing.T) {
	requireAtreides(t)
	const cmd = "ls missing-dir-xyz"
	const skillMark = "TRIAGE-SKILL-7f3a: bisect the last change first."
	stilgar := fa.ToolUse{Name: "Agent", Input: map[string]any{
		"description": "consult the oracle", "prompt": "DIAGNOSE: ls keeps failing on missing-dir-xyz",
		"subagent_type": "atreides-stilgar", "run_in_background": false}}
	p := NewProject(t, fa.Script{
		Steps: []fa.Step{
			fa.Call(fa.Bash(cmd)), fa.Call(fa.Bash(cmd)), fa.Call(fa.Bash(cmd)),
			fa.Call(stilgar),
			fa.Text("Stilgar says the directory does not exist."),
		},
		Agents: []fa.AgentScript{{
			Name: "atreides-stilgar", Match: fa.FirstUserMatches(`DIAGNOSE:`),
			Steps: []fa.Step{fa.Text("Diagnosis: missing-dir-xyz does not exist; create it or list another.")},
		}},
	})
	p.WriteFile(".atreides/skills/triage/SKILL.md", "---\nname: triage\ndescription: How to triage a failure.\n---\n"+skillMark+"\n", 0o644)
	p.WriteFile(".atreides/config.yaml", "agents:\n  stilgar:\n    skills: [triage]\n", 0o644)
	p.InstallAtreides()
	p.RunClaude("list the directory", RunOpts{})

	main := p.Fake.Main()
	if len(main) < 5 {
		t.Fatalf("got %d main requests, want 5; requests:\n%s", len(main), p.Fake.Summary())
	}
	for _, s := range []string{"atreides escalation", "consult Stilgar", `the Agent tool with subagent_type "atreides-stilgar"`} {
		if !main[3].Contains(s) {
			t.Errorf("request after the 3rd failure lacks %q", s)
		}
	}
	// The session start describes no roster (issue 35): Claude Code lists
	// the installed agents to the model itself, in its Agent tool.
	if main[0].Contains(`Stilgar (oracle: diagnosis and hard decisions;`) || !main[0].Contains("atreides-stilgar") {
		t.Errorf("the first request should name atreides-stilgar, Claude Code's own listing, not atreides's roster prose")
	}
	var sub *fa.Request
	for _, r := range p.Fake.RequestsOf(fa.KindAgent) {
		if r.Agent == "atreides-stilgar" {
			sub = r
			break
		}
	}
	if sub == nil {
		t.Fatalf("no request of the stilgar subagent; requests:\n%s", p.Fake.Summary())
	}
	if !sub.Contains("You are Stilgar, the oracle") {
		t.Errorf("the stilgar subagent's request lacks its prompt (agent file not loaded)")
	}
	if !sub.Contains(skillMark) {
		t.Errorf("the stilgar subagent's request lacks the triage skill")
	}
	if main[4].Contains(skillMark) {
		t.Errorf("the skill leaked into the lead agent's context")
	}
	if strings.Contains(p.Fake.Summary(), "unknown agent") {
		t.Errorf("Claude Code did not know the agent stilgar")
	}
}

// TestRosterCodexAgents: after `atreides install codex --user`, Codex
// knows the roster's agent roles: the first request's spawn_agent tool
// offers stilgar, with its description.
func TestRosterCodexAgents(t *testing.T) {
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{fo.Text("Hello.")}})
	out := p.Atreides("install", "codex", "--user")
	if !strings.Contains(out, "installed agents atreides-build, atreides-explore, atreides-librarian, atreides-plan, atreides-stilgar") {
		t.Errorf("install codex did not install the agents:\n%s", out)
	}
	p.Run("say hello")
	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no model request reached the fake")
	}
	raw := string(main[0].Raw)
	for _, s := range []string{"atreides-stilgar", "Oracle: read-only adviser"} {
		if !strings.Contains(raw, s) {
			t.Errorf("the first request does not offer %q", s)
		}
	}
	p.saveArtifact("first-request.json", main[0].Raw)
}

// TestRosterGeminiAgents: after `atreides install gemini --user`, Gemini
// CLI registers the roster's agents: the first request offers stilgar to
// invoke_agent, with its description.
func TestRosterGeminiAgents(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{fg.Text("Hello.")}})
	out := p.Atreides("install", "gemini", "--user")
	if !strings.Contains(out, "installed agents atreides-build, atreides-explore, atreides-librarian, atreides-plan, atreides-stilgar") {
		t.Errorf("install gemini did not install the agents:\n%s", out)
	}
	p.Run("say hello")
	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no model request reached the fake")
	}
	raw := string(main[0].Raw)
	for _, s := range []string{"atreides-stilgar", "Oracle: read-only adviser"} {
		if !strings.Contains(raw, s) {
			t.Errorf("the first request does not offer %q", s)
		}
	}
	if t.Failed() {
		p.saveArtifact("first-request.json", main[0].Raw)
	}
}

// TestRosterOpenCode: the plugin's config hook adds the roster to OpenCode
// in memory: the task tool offers atreides-stilgar with its description,
// and atreides-build and atreides-plan beside OpenCode's own build and
// plan; a task call with subagent_type "atreides-stilgar" runs a child
// session whose
// system prompt is Stilgar's, with the skill attached to it in config.
func TestRosterOpenCode(t *testing.T) {
	const skillMark = "TRIAGE-SKILL-91c2: bisect the last change first."
	task, _ := json.Marshal(map[string]string{"description": "consult the oracle", "prompt": "DIAGNOSE: why does it fail?", "subagent_type": "atreides-stilgar"})
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		if strings.Contains(r.System(), "You are Stilgar, the oracle") {
			return fakeopenaichat.Reply{Text: "Diagnosis: the directory is missing."}
		}
		if countToolResults(r) == 0 {
			return fakeopenaichat.Reply{Calls: []fakeopenaichat.Call{{ID: "call_task", Name: "task", Arguments: string(task)}}}
		}
		return fakeopenaichat.Reply{Text: "Done."}
	})
	p.WriteFile(".atreides/skills/triage/SKILL.md", "---\nname: triage\ndescription: How to triage a failure.\n---\n"+skillMark+"\n")
	p.WriteFile(".atreides/config.yaml", "agents:\n  stilgar:\n    skills: [triage]\n")
	p.runOC("Find out why it fails.")

	mains := p.Fake.MainRequests()
	if len(mains) == 0 {
		t.Fatal("no model request reached the fake")
	}
	first := mains[0].Body()
	for _, s := range []string{"atreides-stilgar", "Oracle: read-only adviser", "atreides-librarian", "atreides-build", "atreides-plan"} {
		if !strings.Contains(first, s) {
			t.Errorf("the first request does not offer %q", s)
		}
	}
	var child *fakeopenaichat.Request
	for _, r := range mains {
		if strings.Contains(r.System(), "You are Stilgar, the oracle") {
			child = r
		}
	}
	if child == nil {
		t.Fatalf("no request of a stilgar child session:\n%s", p.Fake.Summary())
	}
	if !strings.Contains(child.System(), skillMark) {
		t.Errorf("the stilgar child session lacks the triage skill")
	}
	if strings.Contains(mains[0].System(), skillMark) {
		t.Errorf("the skill leaked into the lead agent's system prompt")
	}
}
