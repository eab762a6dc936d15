package session

// testFacts stand in for the hosts registry, which imports this package:
// the facts of the pinned hosts as internal/hosts holds them
// (TestSessionFacts there keeps the two in step).
var testFacts = map[string]HostFacts{
	"claude":   {Instructions: []string{"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"}, Agents: map[string]string{"explore": "Explore", "plan": "Plan"}},
	"gemini":   {Instructions: []string{"GEMINI.md"}, Agents: map[string]string{"explore": "codebase_investigator"}},
	"codex":    {Instructions: []string{"AGENTS.md"}},
	"opencode": {Instructions: []string{"AGENTS.md", "CLAUDE.md"}, Agents: map[string]string{"explore": "explore"}},
}

// testOptions are the defaults with the pinned hosts' facts, as the
// command line passes them.
func testOptions() Options {
	o := DefaultOptions()
	o.Hosts = func(name string) HostFacts { return testFacts[name] }
	return o
}
