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
	// The CLI's default provider (-P); a user's own is in its settings.
	Provider: "cline",
	// It loads every .clinerules/*.md file into the same "# Rules"
	// section itself.
	Rules: event.RulesLoad{Dirs: []string{".clinerules"}},
	// It shows an MCP server's tool as <server>__<tool> (seen in the
	// function declarations the fake model receives).
	ToolPrefix: "atreides__",
	// Its skill folders in a workspace, in its search order (read from
	// the 3.0.65 binary's search paths; ~/.cline/skills and
	// ~/.agents/skills are the user's).
	SkillDirs: []string{".clinerules/skills", ".cline/skills", ".agents/skills"},
	// How a background task runs its CLI (background.go).
	Headless: &headless,
}

// Lacks are the facts this host has none of, on purpose (each checked
// against 3.0.65):
//   - AgentCall, AgentKey: spawn_agent takes a system
//     prompt, not an agent's name, so no named agent can be started;
//   - Compact: compaction is automatic (--compaction), with no command,
//     and its PreCompact hook never fires (the CLI maps it to no event);
//   - TodoTool: it has no todo tool;
//   - Transcript: its sessions are in its own database, in no format
//     atreides reads;
//   - RawMCPTools: an MCP tool's name, <server>__<tool>, splits at its
//     first "__" into the server's and the tool's;
//   - ReadsBeforeWrite: its editor edits a file it has not read;
//   - PluginRunsTasks: no plugin runs atreides's tasks;
//   - ResumeAgent, SubagentStopBlocks: no subagent tool to resume with,
//     and its hooks have no subagent stop.
var Lacks = []string{"AgentCall", "AgentKey", "Compact", "TodoTool", "Transcript", "RawMCPTools", "ReadsBeforeWrite", "PluginRunsTasks", "ResumeAgent", "SubagentStopBlocks"}
