package all

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/slash"
)

// TestNoShadowing (issue 35): no slash command and no agent atreides
// installs has the name of a built-in command or agent of any pinned host,
// whatever the case: each host's lists are its own facts (builtin.go in
// internal/host/<name>, checked against the pinned bundles by test/e2e's
// TestBuiltinsMatchBundles). Across hosts, not host by host: a user of
// two hosts types the same /at-plan in both, and a name one host reserves
// today is one another may take up.
func TestNoShadowing(t *testing.T) {
	cmds, err := slash.All()
	if err != nil {
		t.Fatal(err)
	}
	roster, err := agents.FromConfig(config.Builtin().Agents)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range All() {
		if len(h.Commands.Builtin) == 0 && h.Commands.Dir != nil {
			t.Errorf("%s: takes commands but lists no built-in ones", h.Name)
		}
		if len(h.Agents.Builtin) == 0 && h.Facts.AgentCall != "" {
			t.Errorf("%s: starts named agents but lists no built-in ones", h.Name)
		}
		for _, c := range cmds {
			if host.IsBuiltin(h.Commands.Builtin, c.HostName()) || host.IsBuiltin(h.Agents.Builtin, c.HostName()) {
				t.Errorf("/%s is a built-in of %s", c.HostName(), h.Display)
			}
		}
		for _, a := range roster {
			if host.IsBuiltin(h.Agents.Builtin, a.HostName()) || host.IsBuiltin(h.Commands.Builtin, a.HostName()) {
				t.Errorf("the agent %s is a built-in of %s", a.HostName(), h.Display)
			}
		}
	}
}

// TestShadowingWouldFail: the check above can fail. The bare names
// atreides installed before the prefix collide, on the hosts the issue
// names (Claude Code's /plan and Plan agent, OpenCode's plan and explore
// agents, Gemini CLI's /plan), so the lists are not empty or misspelt.
func TestShadowingWouldFail(t *testing.T) {
	for _, c := range []struct{ host, command, agent string }{
		{"claude", "plan", "plan"}, {"gemini", "plan", ""}, {"opencode", "review", "explore"}, {"copilot", "review", "explore"},
	} {
		h, ok := ByName(c.host)
		if !ok {
			t.Fatalf("no host %s", c.host)
		}
		if c.command != "" && !host.IsBuiltin(h.Commands.Builtin, c.command) {
			t.Errorf("%s: /%s not among its built-in commands", c.host, c.command)
		}
		if c.agent != "" && !host.IsBuiltin(h.Agents.Builtin, c.agent) {
			t.Errorf("%s: %s not among its built-in agents", c.host, c.agent)
		}
	}
}
