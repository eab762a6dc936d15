package claude

import "github.com/atreides-dev/atreides/internal/event"

// Facts are what handlers know of Claude Code (checked against 2.1.330);
// [Adapter] attaches them to every event.
var Facts = event.HostFacts{
	// It reads these itself.
	Instructions: []string{"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"},
	// Its agents are .claude/agents/<name>.md, started with the Agent
	// tool; its own Explore and Plan are other names (case counts), so the
	// roster's explore and plan stand beside them.
	AgentCall:    `the Agent tool with subagent_type "%[1]s"`,
	Compact:      "/compact",
	TodoTool:     "with your TodoWrite tool (or TaskCreate and TaskUpdate)",
	DefaultAgent: "general-purpose",
	AgentKey:     "subagent_type",
	// A stopped subagent takes a message and goes on from its transcript:
	// SendMessage's "to" takes the agent id of the spawn result, which is
	// the hooks' agent_id (2.1.332: "Use an agentId ... only to resume a
	// background agent that has already completed").
	ResumeAgent: `the SendMessage tool with to: "%[1]s"`,
	// A blocked SubagentStop keeps the subagent running, the reason its
	// next message (stop_hook_active is then true).
	SubagentStopBlocks: true,
	Transcript:         event.ClaudeTranscript,
	Provider:           "anthropic",
	// It names an MCP tool mcp__<server>__<tool>.
	ToolPrefix: "mcp__atreides__",
	// Its Edit and Write refuse a file not read first ("File has not been
	// read yet. Read it first before writing to it."), and one changed
	// since it was read.
	ReadsBeforeWrite: true,
	// It reads .claude/rules itself, and the AGENTS.md of each directory
	// above a file it reads unless the root has a CLAUDE.md of its own.
	Rules:     event.RulesLoad{Dirs: []string{".claude/rules"}, Nested: true, NestedUnlessInstructions: true},
	SkillDirs: []string{".claude/skills"},
	// How a background task runs its CLI (background.go).
	Headless: &headless,
}

// Lacks are the facts (fields of event.HostFacts) this host has none of, on
// purpose: its own agents have names of their own; it names each subagent by
// its type; it names MCP tools mcp__<server>__<tool>; tasks run as
// processes.
var Lacks = []string{"GenericChildren", "RawMCPTools", "PluginRunsTasks"}
