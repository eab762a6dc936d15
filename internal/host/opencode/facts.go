package opencode

import "github.com/atreides-dev/atreides/internal/event"

// Facts are what handlers know of OpenCode (checked against 1.18.33);
// the adapter and [Mapper] attach them to every event.
var Facts = event.HostFacts{
	// It reads AGENTS.md, and CLAUDE.md when there is none.
	Instructions: []string{"AGENTS.md", "CLAUDE.md"},
	// The task tool starts a subagent; its own agents are the entry's
	// Agents.Builtin.
	AgentCall:       `the task tool with subagent_type "%[1]s"`,
	Compact:         "/compact",
	TodoTool:        "with your todowrite tool",
	DefaultAgent:    "default",
	AgentKey:        "subagent_type",
	GenericChildren: true,
	// No Transcript: the mapper reports the context's size itself. No
	// Provider: its models come from any provider.
	ToolPrefix: ToolPrefix,
	// Its edit and write tools say they fail on a file not read first,
	// but their code no longer checks: ReadsBeforeWrite stays false, and
	// atreides checks.
	RawMCPTools:     true,
	PluginRunsTasks: true,
	// It attaches the AGENTS.md of each directory above a file its read
	// tool opens (Instruction.resolve).
	Rules:     event.RulesLoad{Nested: true},
	SkillDirs: []string{".opencode/skill", ".claude/skills"},
}

// Lacks are the facts (fields of event.HostFacts) this host has none of, on
// purpose: no transcript file (the mapper reports the context's size);
// models from any provider; its edit and write tools no longer check; no
// headless CLI runs its background tasks (the plugin does, as its agent).
// Delegation: a child session that went idle is not resumed by a tool of the
// parent, and its end (session.idle, seen by the plugin) cannot be
// refused (ResumeAgent, SubagentStopBlocks).
var Lacks = []string{"Transcript", "Provider", "ReadsBeforeWrite", "Headless", "ResumeAgent", "SubagentStopBlocks"}
