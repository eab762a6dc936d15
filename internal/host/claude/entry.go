package claude

import (
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// Entry is Claude Code in the registry (internal/host/all): settings.json
// per scope, and the project's .mcp.json for atreides's MCP tools alongside
// a project or local install.
var Entry = host.Host{
	Name: Host, Display: "Claude Code", Adapter: Adapter{}, Facts: &Facts, Lacks: Lacks, Via: host.Hook,
	Scopes:    []install.Scope{install.ScopeProject, install.ScopeLocal, install.ScopeUser},
	Path:      claudePath,
	Install:   installClaude,
	Uninstall: uninstallClaude,
	Inspect:   Inspect,
	// Its settings of every scope, the project's .mcp.json, and the
	// files that record which plugins are installed (pluginSettings).
	HookFiles: func(env host.Env) []string {
		var out []string
		if env.ProjectDir != "" {
			out = append(out, claudePath(env, install.ScopeProject), claudePath(env, install.ScopeLocal), mcpPath(env.ProjectDir))
		}
		if env.Home != "" {
			out = append(out, claudePath(env, install.ScopeUser))
			out = append(out, pluginSettings(env)...)
		}
		return out
	},
	Plugins:    pluginDirs,
	Programs:   []string{"claude"},
	ConfigDirs: func(env host.Env) []string { return host.UserConfig(env, ".claude") },
	// It sets CLAUDECODE=1 and CLAUDE_CODE_SESSION_ID in its MCP servers'
	// environment (observed with a wrapper that dumped it).
	// -p with these runs it with no permission prompts or no hooks; JSON
	// settings on the command line can switch either off.
	CLI: guard.AgentCLI{Display: "Claude Code", Names: []string{"claude", "claude-code"},
		Off:      []string{"--dangerously-skip-permissions", "--allow-dangerously-skip-permissions", "--bare"},
		OffValue: []guard.FlagValue{{Flag: "--permission-mode", Value: "bypassPermissions"}},
		Settings: "--settings", SettingSources: "--setting-sources", Removes: pluginRemovals},
	Markers: []host.Marker{{Name: "CLAUDECODE", Value: "1"}, {Name: "CLAUDE_CODE_SESSION_ID"}},
	// Claude Code 2.1.330 sets the same two in its Bash tool's commands.
	AgentVars:  []string{"CLAUDECODE", "CLAUDE_CODE_SESSION_ID"},
	SessionVar: "CLAUDE_CODE_SESSION_ID",
	// Its agents are .claude/agents/<name>.md, started with the Agent
	// tool; its own Explore and Plan are other names (case counts), so the
	// roster's explore and plan stand beside them. SubagentStart carries
	// the agent type, so skills are injected when the agent starts.
	// Its MCP servers: the project's .mcp.json and the user's
	// ~/.claude.json (user scope; what 'claude mcp add -s user' writes).
	MCPConfig: []host.MCPSource{
		{Path: func(env host.Env) string { return host.Under(env.ProjectDir, ".mcp.json") }, Key: "mcpServers"},
		{Path: func(env host.Env) string { return host.Under(env.Home, ".claude.json") }, Key: "mcpServers"},
	},
	Agents: claudeAgents,
	// Its slash commands are .claude/commands/<name>.md (project) or
	// ~/.claude/commands (user), with $ARGUMENTS.
	Commands: claudeCommands,

	Start: "register the hooks in .claude/settings.json",
	Writes: `.claude/settings.json (--local: .claude/settings.local.json,
--user: ~/.claude/settings.json); with a project or local
install also .mcp.json, registering atreides's MCP tools
('atreides mcp') as the server "atreides"`,

	Doctor: claudeDoctor,
}

func claudePath(env host.Env, scope install.Scope) string {
	return SettingsPath(scope, env.ProjectDir, env.Home)
}

// installClaude writes the hooks, then the parts o has (the MCP server,
// the agent and command files), removing those it leaves out.
func installClaude(env host.Env, o host.Options) (install.Report, error) {
	rep, err := Install(InstallOptions{
		SettingsPath: claudePath(env, o.Scope), BinaryPath: o.Binary,
		TimeoutSeconds: o.TimeoutSeconds, BackupDir: env.BackupDir(o.Scope),
	})
	if err != nil {
		return rep, err
	}
	if err := withClaudeMCP(env, &rep, o.Scope, o.Binary, o.Has(host.PartMCP)); err != nil {
		return rep, err
	}
	if err := host.WithAgents(env, &rep, Host, claudeAgents, o.Scope, host.AgentsOf(&o)); err != nil {
		return rep, err
	}
	return rep, host.WithCommands(env, &rep, Host, Facts.ToolPrefix, claudeCommands, o.Scope, o.Has(host.PartCommands))
}

func uninstallClaude(env host.Env, scope install.Scope) (install.Report, error) {
	// The agent files first: the settings' uninstall removes the
	// directories install created (.claude) only once they are empty.
	var agentsRep install.Report
	if err := host.WithAgents(env, &agentsRep, Host, claudeAgents, scope, nil); err != nil {
		return agentsRep, err
	}
	if err := host.WithCommands(env, &agentsRep, Host, Facts.ToolPrefix, claudeCommands, scope, false); err != nil {
		return agentsRep, err
	}
	rep, err := Uninstall(claudePath(env, scope), env.BackupDir(scope))
	host.FoldUninstall(&rep, agentsRep, install.Report{})
	if err != nil {
		return rep, err
	}
	return rep, withClaudeMCP(env, &rep, scope, "", false)
}

// withClaudeMCP registers (or removes) the agent's MCP tools in the
// project's .mcp.json alongside a project or local install, and folds what
// it did into the report. .mcp.json is a project file, committed like
// .claude/settings.json, so it always names atreides through PATH. A user
// install registers no MCP server: Claude Code keeps user servers in
// ~/.json, a file it rewrites itself.
func withClaudeMCP(env host.Env, rep *install.Report, scope install.Scope, bin string, add bool) error {
	if scope == install.ScopeUser {
		if add {
			rep.Notes = append(rep.Notes, "MCP tools are registered per project: run 'atreides install claude' in a project to add them")
		}
		return nil
	}
	path := mcpPath(env.ProjectDir)
	backups := env.BackupDir(install.ScopeProject)
	var m install.Report
	var err error
	if add {
		m, err = InstallMCP(path, install.PortableBinary, backups)
	} else {
		m, err = UninstallMCP(path, backups)
	}
	if err != nil {
		return err
	}
	host.FoldMCP(rep, m)
	return nil
}

// claudeDoctor reports hooks switched off by disableAllHooks in any of
// the settings files, and checks the MCP registration in .mcp.json.
func claudeDoctor(env host.Env, found []install.Status) []host.Check {
	path := mcpPath(env.ProjectDir)
	reg, problem, err := InspectMCP(path)
	return append(host.DisabledCheck(Host, found), host.MCPCheck(Host, path, reg, problem, err, env.Governance))
}

// claudeAgents is how claude takes the roster (see the host entry).
var claudeAgents = host.AgentFacts{
	Builtin: builtinAgents,
	Dir:     claudeAgentsDir,
	Form:    AgentForm,
}

// claudeAgentsDir is claudeAgents.Dir, a named function: the host's entry
// copies claudeAgents, and a func literal there would be copied when the
// program starts instead of being static data.
func claudeAgentsDir(env host.Env, scope install.Scope) string {
	return host.DotDir(env, scope, ".claude", "agents")
}

// claudeCommands is how claude takes the slash commands (see the entry).
var claudeCommands = host.CommandFacts{
	Builtin: builtinCommands,
	Dir:     claudeCommandsDir,
	Form:    CommandForm,
}

// claudeCommandsDir is claudeCommands.Dir, a named function: the host's entry
// copies claudeCommands, and a func literal there would be copied when the
// program starts instead of being static data.
func claudeCommandsDir(env host.Env, scope install.Scope) string {
	return host.DotDir(env, scope, ".claude", "commands")
}
