package gemini

import "github.com/atreides-dev/atreides/internal/event"

// Facts are what handlers know of Gemini CLI (checked against 0.61.0);
// [Adapter] attaches them to every event.
var Facts = event.HostFacts{
	// It reads GEMINI.md, not AGENTS.md.
	Instructions: []string{"GEMINI.md"},
	// Its local agents (.gemini/agents/*.md) start with invoke_agent.
	AgentCall: `the invoke_agent tool with agent_name "%[1]s"`,
	Compact:   "/compress",
	TodoTool:  "with your write_todos tool",
	// invoke_agent requires agent_name (0.61.0's schema), so no call
	// starts an unnamed agent; the default is its general-purpose agent,
	// generalist (all tools, not experimental: registered by default),
	// which the strikes' escalation falls back to when the oracle is not
	// installed.
	DefaultAgent: "generalist",
	AgentKey:     "agent_name",
	Transcript:   event.GeminiTranscript,
	Provider:     "google",
	// It names an MCP tool mcp_<server>_<tool> (its generateValidName;
	// seen in the declarations the fake model receives).
	ToolPrefix: "mcp_atreides_",
	SkillDirs:  []string{".gemini/skills"},
	// How a background task runs its CLI (background.go).
	Headless: &headless,
}

// Lacks are the facts (fields of event.HostFacts) this host has none of, on
// purpose: no primary agents under the roster's ids; subagents named by
// type; its edit tools do not refuse an unread file; MCP tools named
// mcp_<server>_<tool>; tasks run as processes; it loads GEMINI.md, no
// AGENTS.md of its own.
// Delegation: no tool resumes a subagent that ended, and no subagent-stop event (its
// hooks have none) (ResumeAgent, SubagentStopBlocks).
var Lacks = []string{"GenericChildren", "ReadsBeforeWrite", "RawMCPTools", "PluginRunsTasks", "Rules", "ResumeAgent", "SubagentStopBlocks"}
