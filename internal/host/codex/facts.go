package codex

import "github.com/atreides-dev/atreides/internal/event"

// Facts are what handlers know of Codex (checked against 0.171.0);
// [Adapter] attaches them to every event.
var Facts = event.HostFacts{
	// It reads AGENTS.md from the root down to its working directory at
	// start, none below it.
	Instructions: []string{"AGENTS.md"},
	// Its agent roles start with spawn_agent's agent_type.
	AgentCall: `the spawn_agent tool with agent_type "%[1]s"`,
	Compact:   "/compact",
	// No TodoTool: its plan tool fires no hook, so only atreides's own
	// todos count.
	DefaultAgent: "default",
	AgentKey:     "agent_type",
	Transcript:   event.CodexTranscript,
	Provider:     "openai",
	// No ToolPrefix: it shows an MCP server's tools to the model as a
	// namespace "mcp__<server>" holding each tool under its own name (the
	// request the fake model receives): the model calls the bare name.
	Rules:     event.RulesLoad{UpToCwd: true},
	SkillDirs: []string{".agents/skills"},
	// How a background task runs its CLI (background.go).
	Headless: &headless,
}

// Lacks are the facts (fields of event.HostFacts) this host has none of, on
// purpose: no primary agents under the roster's ids; its plan tool fires no
// hook; subagents named by role; the model calls atreides's tools by their
// bare names; apply_patch does not refuse an unread file; MCP tools named
// mcp__<server>__<tool>; tasks run as processes.
// Delegation: no resume of an ended subagent known to work on the pinned
// version (ResumeAgent); its SubagentStop output takes "block", but a run
// of 0.171.0 (codex exec, a spawned worker ending in prose) showed no
// further turn of the subagent after it, so an invalid return is
// reported at once rather than left waiting for a second stop
// (SubagentStopBlocks).
var Lacks = []string{"TodoTool", "GenericChildren", "ToolPrefix", "ReadsBeforeWrite", "RawMCPTools", "PluginRunsTasks", "ResumeAgent", "SubagentStopBlocks"}
