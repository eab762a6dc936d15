package kilo

import (
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/opencode"
)

// Host is Kilo Code's name in events, state and on the command line.
const Host = "kilo"

// Facts are what handlers know of Kilo Code (checked against 7.7.7); the
// OpenCode adapter and mapper attach them to every event of the flavor.
var Facts = event.HostFacts{
	// It reads AGENTS.md, CLAUDE.md and CONTEXT.md (its Instruction
	// list; CLAUDE.md unless its Claude Code prompt is turned off).
	Instructions: []string{"AGENTS.md", "CLAUDE.md", "CONTEXT.md"},
	// The task tool starts a subagent (subagent_type); its own agents
	// are the entry's Agents.Builtin.
	AgentCall:       `the task tool with subagent_type "%[1]s"`,
	Compact:         "/compact",
	TodoTool:        "with your todowrite tool",
	DefaultAgent:    "default",
	AgentKey:        "subagent_type",
	GenericChildren: true,
	// No Transcript: the mapper reports the context's size itself. No
	// Provider: its models come from any provider.
	ToolPrefix:      opencode.ToolPrefix,
	RawMCPTools:     true,
	PluginRunsTasks: true,
	// It kept OpenCode's Instruction.resolve: the AGENTS.md of each
	// directory above a file its read tool opens.
	Rules: event.RulesLoad{Nested: true},
	// {skill,skills}/<name>/SKILL.md in each config directory; .kilocode
	// is its legacy name.
	SkillDirs: []string{".kilo/skills", ".kilo/skill", ".kilocode/skills"},
}

// Lacks are the facts Kilo Code has none of, as OpenCode: no transcript
// file (the mapper reports the context's size); models from any provider;
// its edit and write tools do not refuse an unread file; no headless CLI
// runs its background tasks (the plugin does, as its agent).
// Delegation: as OpenCode, no resume of an ended child and no end to
// refuse (ResumeAgent, SubagentStopBlocks).
var Lacks = []string{"Transcript", "Provider", "ReadsBeforeWrite", "Headless", "ResumeAgent", "SubagentStopBlocks"}

// flavor is Kilo Code as the OpenCode adapter, mapper and plugin install
// take it: at every start Kilo installs @kilocode/plugin into each config
// directory, as OpenCode does its own package.
var flavor = opencode.Flavor{Name: Host, Facts: &Facts, DepsPackage: depsPackage}

// depsPackage is the package Kilo installs for its plugins.
const depsPackage = "@kilocode/plugin"
