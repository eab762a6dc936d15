package gemini

import (
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// Entry is Gemini CLI in the registry (internal/host/all): settings.json in
// the project or the user's ~/.
var Entry = host.Host{
	Name: Host, Display: "Gemini CLI", Adapter: Adapter{}, Facts: &Facts, Lacks: Lacks, Via: host.Hook,
	Scopes: []install.Scope{install.ScopeProject, install.ScopeUser},
	Path: func(env host.Env, scope install.Scope) string {
		return SettingsPath(scope, env.ProjectDir, env.Home)
	},
	Install:   installGemini,
	Uninstall: uninstallGemini,
	Inspect:   Inspect,
	HookFiles: func(env host.Env) []string {
		var out []string
		if env.ProjectDir != "" {
			out = append(out, SettingsPath(install.ScopeProject, env.ProjectDir, env.Home))
		}
		if env.Home != "" {
			out = append(out, SettingsPath(install.ScopeUser, env.ProjectDir, env.Home), extensionEnablement(env))
		}
		return out
	},
	Plugins:    extensionDirs,
	Programs:   []string{"gemini"},
	ConfigDirs: func(env host.Env) []string { return host.UserConfig(env, ".gemini") },
	// It sets GEMINI_CLI=1 in its MCP servers' environment (observed with
	// a wrapper that dumped it).
	CLI: guard.AgentCLI{Display: "Gemini CLI", Names: []string{"gemini", "gemini-cli"}, Off: []string{"--yolo", "-y"},
		OffValue: []guard.FlagValue{{Flag: "--approval-mode", Value: "yolo"}}, OffShort: 'y', Removes: extensionRemovals},
	Markers: []host.Marker{{Name: "GEMINI_CLI", Value: "1"}},
	// Gemini CLI 0.61.0 sets GEMINI_CLI=1 in its shell tool's commands.
	AgentVars: []string{"GEMINI_CLI"},
	// Gemini CLI 0.61.0 loads local agents from .gemini/agents/*.md and
	// ~/.gemini/agents/*.md (experimental.enableAgents, on by default) and
	// starts them with invoke_agent. A project's agents load only in a
	// trusted folder and once the user acknowledged each file's content in
	// the interactive CLI (~/.gemini/acknowledgments/agents.json, which
	// atreides never writes); the user's load as they are. It has no
	// subagent-start event to inject skills on: they go into the prompt.
	// Its MCP servers: mcpServers in the project's and the user's
	// settings.json, the files install writes the hooks to.
	MCPConfig: []host.MCPSource{
		{Path: func(env host.Env) string { return host.Under(env.ProjectDir, ".gemini", "settings.json") }, Key: "mcpServers"},
		{Path: func(env host.Env) string { return host.Under(env.Home, ".gemini", "settings.json") }, Key: "mcpServers"},
	},
	Agents: geminiAgents,
	// Its custom commands are .gemini/commands/<name>.toml (project, read
	// in a trusted folder) or ~/.gemini/commands: description and prompt,
	// with {{args}}.
	Commands: geminiCommands,

	Start: "register the hooks in .gemini/settings.json",
	Writes: `.gemini/settings.json (--user: ~/.gemini/settings.json); Gemini
runs project hooks only in a trusted folder`,

	Doctor: geminiDoctor,
}

// geminiDoctor reports hooks switched off in any of Gemini's files: it
// merges hooksConfig.disabled across them, so a name disabled in one
// disables atreides's hooks in all of them.
func geminiDoctor(env host.Env, found []install.Status) []host.Check {
	out := host.DisabledCheck(Host, found)
	// The MCP server of each file that has our hooks, else the project's.
	var paths []string
	for _, st := range found {
		if len(st.Events) > 0 {
			paths = append(paths, st.Path)
		}
	}
	if len(paths) == 0 {
		paths = []string{SettingsPath(install.ScopeProject, env.ProjectDir, env.Home)}
	}
	for _, path := range paths {
		reg, problem, err := InspectMCP(path)
		out = append(out, host.MCPCheck(Host, path, reg, problem, err, env.Governance))
	}
	return out
}

// installGemini writes the hooks, then the MCP server, into the same
// settings file (its undo record, started by the hooks, covers both, so
// uninstalling an unchanged file gives back its bytes from before), then
// the agent files.
//
// A part o leaves out is removed instead, before the hooks are written
// (leaveOut).
func installGemini(env host.Env, o host.Options) (install.Report, error) {
	path := SettingsPath(o.Scope, env.ProjectDir, env.Home)
	pre, m, err := leaveOut(env, path, o)
	if err != nil {
		return pre, err
	}
	rep, err := Install(InstallOptions{
		SettingsPath: path, BinaryPath: o.Binary,
		TimeoutMillis: o.TimeoutSeconds * 1000, Scope: o.Scope, BackupDir: env.BackupDir(o.Scope),
	})
	if err != nil {
		return rep, err
	}
	if o.Has(host.PartMCP) {
		if m, err = InstallMCP(path, o.Binary, env.BackupDir(o.Scope)); err != nil {
			return rep, err
		}
	}
	host.FoldInstall(&rep, m)
	rep.Notes, rep.Warnings = append(pre.Notes, rep.Notes...), append(pre.Warnings, rep.Warnings...)
	if err := host.WithAgents(env, &rep, Host, geminiAgents, o.Scope, host.AgentsOf(&o)); err != nil {
		return rep, err
	}
	if err := host.WithCommands(env, &rep, Host, Facts.ToolPrefix, geminiCommands, o.Scope, o.Has(host.PartCommands)); err != nil {
		return rep, err
	}
	if o.Scope == install.ScopeProject && o.Has(host.PartAgents) && len(o.Roster.Subagents()) > 0 {
		rep.Notes = append(rep.Notes, "Gemini CLI loads a project's agents only once you accept them in an interactive session (it asks when it finds new or changed agent files; headless runs skip them until then); 'atreides install gemini --user' installs them for you alone, without that step")
	}
	return rep, nil
}

// uninstallGemini removes the agent files first (the settings' uninstall
// removes the directories install created only once they are empty), then
// the hooks, then the MCP server (if restoring the file's old bytes did
// not take it already).
func uninstallGemini(env host.Env, scope install.Scope) (install.Report, error) {
	var agentsRep install.Report
	if err := host.WithAgents(env, &agentsRep, Host, geminiAgents, scope, nil); err != nil {
		return agentsRep, err
	}
	if err := host.WithCommands(env, &agentsRep, Host, Facts.ToolPrefix, geminiCommands, scope, false); err != nil {
		return agentsRep, err
	}
	path := SettingsPath(scope, env.ProjectDir, env.Home)
	rep, err := Uninstall(path, env.BackupDir(scope))
	if err != nil {
		host.FoldUninstall(&rep, agentsRep, install.Report{})
		return rep, err
	}
	m, err := UninstallMCP(path, env.BackupDir(scope))
	host.FoldUninstall(&rep, agentsRep, m)
	return rep, err
}

// geminiAgents is how gemini takes the roster (see the host entry).
var geminiAgents = host.AgentFacts{
	Builtin: builtinAgents,
	Dir:     geminiAgentsDir,
	Form:    AgentForm, InlineSkills: true,
}

// geminiAgentsDir is geminiAgents.Dir, a named function: the host's entry
// copies geminiAgents, and a func literal there would be copied when the
// program starts instead of being static data.
func geminiAgentsDir(env host.Env, scope install.Scope) string {
	return host.DotDir(env, scope, ".gemini", "agents")
}

// geminiCommands is how gemini takes the slash commands (see the entry).
var geminiCommands = host.CommandFacts{
	Builtin: builtinCommands,
	Dir:     geminiCommandsDir,
	Form:    CommandForm,
}

// geminiCommandsDir is geminiCommands.Dir, a named function: the host's entry
// copies geminiCommands, and a func literal there would be copied when the
// program starts instead of being static data.
func geminiCommandsDir(env host.Env, scope install.Scope) string {
	return host.DotDir(env, scope, ".gemini", "commands")
}

// leaveOut removes the parts o leaves out before the hooks are written:
// the agent and command files, then the MCP server (m), which shares the
// hooks' file (see host.LeaveOut).
func leaveOut(env host.Env, path string, o host.Options) (pre, m install.Report, err error) {
	if err = host.LeaveOut(env, &pre, Host, Facts.ToolPrefix, geminiAgents, geminiCommands, &o); err != nil || o.Has(host.PartMCP) {
		return pre, m, err
	}
	m, err = UninstallMCP(path, env.BackupDir(o.Scope))
	return pre, m, err
}
