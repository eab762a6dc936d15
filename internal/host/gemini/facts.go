package gemini

import "github.com/atreides-dev/atreides/internal/event"

// Facts are what handlers know of Gemini CLI (checked against 0.61.0);
// [Adapter] attaches them to every event.
var Facts = event.HostFacts{
	// It reads GEMINI.md, not AGENTS.md.
	Instructions: []string{"GEMINI.md"},
	// Its local agents (.gemini/agents/*.md) start with invoke_agent.
	AgentCall:    `the invoke_agent tool with agent_name "%[1]s"`,
	Compact:      "/compress",
	TodoTool:     "with your write_todos tool",
	DefaultAgent: "default",
	AgentKey:     "agent_name",
	Transcript:   event.GeminiTranscript,
	Provider:     "google",
	// It names an MCP tool mcp_<server>_<tool> (its generateValidName;
	// seen in the declarations the fake model receives).
	ToolPrefix: "mcp_atreides_",
	SkillDirs:  []string{".gemini/skills"},
}
