package session

import (
	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
)

// testFacts stand in for the hosts registry, which imports this package:
// the facts of the pinned hosts as internal/hosts holds them
// (TestSessionFacts there keeps the two in step).
var testFacts = map[string]HostFacts{
	"claude":   {Instructions: []string{"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"}, Call: `the Agent tool with subagent_type "%[1]s"`},
	"gemini":   {Instructions: []string{"GEMINI.md"}, Call: `the invoke_agent tool with agent_name "%[1]s"`},
	"codex":    {Instructions: []string{"AGENTS.md"}, Call: `the spawn_agent tool with agent_type "%[1]s"`},
	"opencode": {Instructions: []string{"AGENTS.md", "CLAUDE.md"}, Call: `the task tool with subagent_type "%[1]s"`, Native: []string{"build", "plan"}},
}

// builtinOptions are what the built-in configuration gives, its roster
// included.
func builtinOptions() Options {
	c := config.Builtin()
	r, _ := agents.FromConfig(c.Agents)
	return FromConfig(c).WithRoster(r)
}

// testOptions are the defaults with the pinned hosts' facts, as the
// command line passes them.
func testOptions() Options {
	o := builtinOptions()
	o.Hosts = func(name string) HostFacts { return testFacts[name] }
	return o
}
