package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// workerAgent is a project subagent of Claude Code's own form, with every
// tool (it may delegate again) and a marker in its prompt, so that the
// fake server can tell which agent a request comes from.
const workerAgent = `---
name: worker
description: Does delegated work.
---
WORKER-MARKER: you are the worker agent.
`

// TestDelegationLimitsDefaultConfig: with the default configuration
// (governance off) plus a delegation section, a delegation to "helper"
// (no such agent) is redirected to "worker" through the hook's updated
// input, and the worker (depth 1) is refused a delegation of its own over
// max_depth 1; `atreides status --json` shows the worker's delegation.
func TestDelegationLimitsDefaultConfig(t *testing.T) {
	requireAtreides(t)
	agent := func(typ, prompt string) fa.ToolUse {
		return fa.ToolUse{Name: "Agent", Input: map[string]any{
			"description": "delegate", "prompt": prompt,
			"subagent_type": typ, "run_in_background": false}}
	}
	p := NewProject(t, fa.Script{
		Steps: []fa.Step{fa.Call(agent("helper", "SUBTASK: look around")), fa.Text("The subagent reported back.")},
		Agents: []fa.AgentScript{{
			Name: "sub", Match: fa.FirstUserMatches(`SUBTASK:`),
			Steps: []fa.Step{fa.Call(agent("general-purpose", "NESTED: go deeper")), fa.Text("Could not delegate further.")},
		}},
	})
	p.WriteFile(".claude/agents/worker.md", workerAgent, 0o644)
	p.WriteFile(".atreides/config.yaml", "delegation:\n  max_depth: 1\n  redirect: { helper: worker }\n", 0o644)
	p.InstallAtreides()
	p.RunClaude("delegate the survey", RunOpts{})

	// The redirect took effect: the subagent that ran is the worker.
	var sub *fa.Request
	for _, r := range p.Fake.RequestsOf(fa.KindAgent) {
		if r.Agent == "sub" {
			sub = r
			break
		}
	}
	if sub == nil {
		t.Fatalf("no subagent request reached the fake server; requests:\n%s", p.Fake.Summary())
	}
	if !strings.Contains(sub.SystemText(), "WORKER-MARKER") {
		t.Errorf("the subagent is not the worker the redirect names; its system prompt:\n%.600s", sub.SystemText())
	}
	// The worker's own delegation is over max_depth 1.
	tr, _, ok := p.Fake.ToolResult(fa.ToolID("sub", 0, 0))
	if !ok {
		t.Fatalf("the subagent's delegation reached no tool result; requests:\n%s", p.Fake.Summary())
	}
	if !tr.IsError || !strings.Contains(tr.Text, "over the limit of 1") || !strings.Contains(tr.Text, "main → worker → general-purpose") {
		t.Errorf("nested delegation not refused with its path: error=%v %q", tr.IsError, tr.Text)
	}
	// The main agent was told of the redirect once.
	if n := p.Fake.Main()[len(p.Fake.Main())-1].CountMessagesContaining(`go to "worker"`); n != 1 {
		t.Errorf("the redirect note reached the main agent %d times, want 1", n)
	}

	var doc struct {
		Sessions []struct {
			Delegations []struct {
				Type    string   `json:"type"`
				Path    []string `json:"path"`
				State   string   `json:"state"`
				Outcome string   `json:"outcome"`
			} `json:"delegations"`
		} `json:"sessions"`
	}
	out := p.Atreides("status", "--json")
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	found := false
	for _, s := range doc.Sessions {
		for _, d := range s.Delegations {
			found = found || d.Type == "worker" && strings.Join(d.Path, "/") == "main/worker" && d.State == "finished" && d.Outcome == "ok"
		}
	}
	if !found {
		t.Errorf("status does not show the finished worker delegation:\n%s", out)
	}
}
