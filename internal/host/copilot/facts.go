package copilot

import "github.com/atreides-dev/atreides/internal/event"

// Facts are what handlers know of GitHub Copilot CLI (checked against
// 1.0.102); [Adapter] attaches them to every event.
var Facts = event.HostFacts{
	// It puts each of these, found at the root, into its system prompt as
	// a <custom_instruction>, in this order (seen in the fake model's
	// requests); an AGENTS.md below the root comes with a read (Rules).
	Instructions: []string{".github/copilot-instructions.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md"},
	// Its custom agents (see the entry) are started by its task tool.
	AgentCall: `the task tool with agent_type "%[1]s"`,
	Compact:   "/compact",
	// Its task tool names the agent in agent_type.
	DefaultAgent: "general-purpose",
	AgentKey:     "agent_type",
	// A blocked subagentStop continues the child with the reason.
	SubagentStopBlocks: true,
	// Its models come through GitHub (a provider of its own can be set
	// with COPILOT_PROVIDER_*, as the tests do).
	Provider: "github",
	// It shows an MCP tool as <server>-<tool> (1.0.102), a third party's
	// too: one name with the server's left in.
	ToolPrefix:  "atreides-",
	RawMCPTools: true,
	SkillDirs:   []string{".github/skills"},
	// After its view tool reads a file, it adds the AGENTS.md of each
	// directory above it as "Custom instructions from <dir>/AGENTS.md"
	// (seen in the fake model's requests), whether or not the root has
	// one; the root's own sits in the system prompt (Instructions).
	Rules: event.RulesLoad{Nested: true},
	// How a background task runs its CLI (background.go).
	Headless: &headless,
}

// Lacks are the facts (fields of event.HostFacts) this host has none of,
// on purpose: no primary agents under the roster's ids; its todo
// list is an SQL table the model writes with its sql tool, which atreides
// cannot mirror; subagents named by type; events.jsonl is a transcript
// format atreides does not read; its edit tool
// does not refuse an unread file; tasks run as processes.
// Delegation: no tool resumes an ended subagent (ResumeAgent).
var Lacks = []string{"TodoTool", "GenericChildren", "Transcript", "ReadsBeforeWrite", "PluginRunsTasks", "ResumeAgent"}
