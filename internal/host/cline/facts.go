package cline

import "github.com/atreides-dev/atreides/internal/event"

// Facts are what handlers know of the Cline CLI (checked against 3.0.65);
// [Adapter] attaches them to every event.
var Facts = event.HostFacts{
	// It puts the workspace's AGENTS.md into its system prompt under
	// "# Rules" (seen in the request the fake model receives); not
	// CLAUDE.md, not an AGENTS.md below the root.
	Instructions: []string{"AGENTS.md"},
	// spawn_agent {systemPrompt, task} starts an unnamed sub-agent: no
	// type is named, so every delegation is the one kind.
	DefaultAgent:    "subagent",
	GenericChildren: true,
	Provider:        "openai-compatible",
	// It loads every .clinerules/*.md file into the same "# Rules"
	// section itself.
	Rules: event.RulesLoad{Dirs: []string{".clinerules"}},
}

// Lacks are the facts this host has none of, on purpose (each checked
// against 3.0.65):
//   - AgentCall, PrimaryAgents, AgentKey: spawn_agent takes a system
//     prompt, not an agent's name, so no named agent can be started;
//   - Compact: compaction is automatic (--compaction), with no command,
//     and its PreCompact hook never fires (the CLI maps it to no event);
//   - TodoTool: it has no todo tool;
//   - Transcript: its sessions are in its own database, in no format
//     atreides reads;
//   - ToolPrefix, RawMCPTools: atreides's MCP tools are not registered
//     (see the package doc);
//   - ReadsBeforeWrite: its editor edits a file it has not read;
//   - PluginRunsTasks: no plugin runs atreides's tasks;
//   - SkillDirs: its skills are installed by a separate tool (npx skills),
//     not read from a folder of the project.
var Lacks = []string{"AgentCall", "PrimaryAgents", "AgentKey", "Compact", "TodoTool", "Transcript", "ToolPrefix", "RawMCPTools", "ReadsBeforeWrite", "PluginRunsTasks", "SkillDirs"}
