package qwen

import "github.com/atreides-dev/atreides/internal/event"

// Facts are what handlers know of Qwen Code (checked against 0.24.4);
// [Adapter] attaches them to every event.
var Facts = event.HostFacts{
	// It reads both into the system prompt at start (its
	// InstructionsLoaded event named each in the capture run).
	Instructions: []string{"QWEN.md", "AGENTS.md"},
	// Its agents are .qwen/agents/<name>.md, started with the agent tool;
	// without subagent_type it starts general-purpose.
	AgentCall:    `the agent tool with subagent_type "%[1]s"`,
	Compact:      "/compress",
	DefaultAgent: "general-purpose",
	AgentKey:     "subagent_type",
	// A blocked SubagentStop sends the reason to the subagent and runs
	// another turn (captured: 02-subagent-stop-block).
	SubagentStopBlocks: true,
	Provider:           "openai",
	// It names an MCP tool mcp__<server>__<tool>, as Claude Code does.
	ToolPrefix: "mcp__atreides__",
	// It reads the instruction files from the root down to the cwd at
	// start, none below (a run showed sub/AGENTS.md loaded neither at
	// start nor when a file there was read), and every file of
	// .qwen/rules (those with paths: front matter when a matching file is
	// touched).
	Rules:     event.RulesLoad{Dirs: []string{".qwen/rules"}, UpToCwd: true},
	SkillDirs: []string{".qwen/skills"},
	// How a background task runs its CLI (background.go).
	Headless: &headless,
}

// Lacks are the facts (fields of event.HostFacts) this host has none of, on
// purpose: no primary agents under the roster's ids; its todo_write is off
// by default (tools.todoWrite.enabled), so only atreides's own todos count
// unless the user turns it on (then it is mirrored all the same); subagents
// named by type; a chat recording atreides has no reader for; its edit
// tools do not refuse an unread file; MCP tools named
// mcp__<server>__<tool>; tasks run as processes.
// Delegation: no tool resumes an ended subagent (ResumeAgent).
var Lacks = []string{"TodoTool", "GenericChildren", "Transcript", "ReadsBeforeWrite", "RawMCPTools", "PluginRunsTasks", "ResumeAgent"}
