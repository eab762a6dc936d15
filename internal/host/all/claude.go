package all

import (
	"fmt"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/install"
)

// Claude Code: settings.json per scope, and the project's .mcp.json for
// atreides's MCP tools alongside a project or local install.
var claudeHost = Host{
	Name: "claude", Display: "Claude Code", Adapter: claude.Adapter{}, Facts: &claude.Facts, Lacks: claude.Lacks, Via: Hook,
	Scopes:    []install.Scope{install.ScopeProject, install.ScopeLocal, install.ScopeUser},
	Path:      claudePath,
	Install:   installClaude,
	Uninstall: uninstallClaude,
	Inspect:   claude.Inspect,
	// Its settings of every scope, and the project's .mcp.json.
	HookFiles: func(env Env) []string {
		var out []string
		if env.ProjectDir != "" {
			out = append(out, claudePath(env, install.ScopeProject), claudePath(env, install.ScopeLocal), claude.MCPPath(env.ProjectDir))
		}
		if env.Home != "" {
			out = append(out, claudePath(env, install.ScopeUser))
		}
		return out
	},
	Programs:   []string{"claude"},
	ConfigDirs: func(env Env) []string { return userConfig(env, ".claude") },
	// It sets CLAUDECODE=1 and CLAUDE_CODE_SESSION_ID in its MCP servers'
	// environment (observed with a wrapper that dumped it).
	// -p with these runs it with no permission prompts or no hooks; JSON
	// settings on the command line can switch either off.
	CLI: guard.AgentCLI{Display: "Claude Code", Names: []string{"claude", "claude-code"},
		Off:      []string{"--dangerously-skip-permissions", "--allow-dangerously-skip-permissions", "--bare"},
		OffValue: []guard.FlagValue{{Flag: "--permission-mode", Value: "bypassPermissions"}},
		Settings: "--settings", SettingSources: "--setting-sources"},
	Markers: []Marker{{"CLAUDECODE", "1"}, {"CLAUDE_CODE_SESSION_ID", ""}},
	// Its agents are .claude/agents/<name>.md, started with the Agent
	// tool; its own Explore and Plan are other names (case counts), so the
	// roster's explore and plan stand beside them. SubagentStart carries
	// the agent type, so skills are injected when the agent starts.
	Agents: claudeAgents,
	// Its slash commands are .claude/commands/<name>.md (project) or
	// ~/.claude/commands (user), with $ARGUMENTS.
	Commands: claudeCommands,

	Doctor: claudeDoctor,
}

func claudePath(env Env, scope install.Scope) string {
	return claude.SettingsPath(scope, env.ProjectDir, env.Home)
}

func installClaude(env Env, o Options) (install.Report, error) {
	rep, err := claude.Install(claude.InstallOptions{
		SettingsPath: claudePath(env, o.Scope), BinaryPath: o.Binary,
		TimeoutSeconds: o.TimeoutSeconds, BackupDir: env.BackupDir(o.Scope),
	})
	if err != nil {
		return rep, err
	}
	if err := withClaudeMCP(env, &rep, o.Scope, o.Binary, true); err != nil {
		return rep, err
	}
	if err := withAgents(env, &rep, "claude", claudeAgents, o.Scope, &o); err != nil {
		return rep, err
	}
	return rep, withCommands(env, &rep, "claude", claude.Facts.ToolPrefix, claudeCommands, o.Scope, true)
}

func uninstallClaude(env Env, scope install.Scope) (install.Report, error) {
	// The agent files first: the settings' uninstall removes the
	// directories install created (.claude) only once they are empty.
	var agentsRep install.Report
	if err := withAgents(env, &agentsRep, "claude", claudeAgents, scope, nil); err != nil {
		return agentsRep, err
	}
	if err := withCommands(env, &agentsRep, "claude", claude.Facts.ToolPrefix, claudeCommands, scope, false); err != nil {
		return agentsRep, err
	}
	rep, err := claude.Uninstall(claudePath(env, scope), env.BackupDir(scope))
	foldUninstall(&rep, agentsRep, install.Report{})
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
// ~/.claude.json, a file it rewrites itself.
func withClaudeMCP(env Env, rep *install.Report, scope install.Scope, bin string, add bool) error {
	if scope == install.ScopeUser {
		if add {
			rep.Notes = append(rep.Notes, "MCP tools are registered per project: run 'atreides install claude' in a project to add them")
		}
		return nil
	}
	path := claude.MCPPath(env.ProjectDir)
	backups := env.BackupDir(install.ScopeProject)
	var m install.Report
	var err error
	if add {
		m, err = claude.InstallMCP(path, install.PortableBinary, backups)
	} else {
		m, err = claude.UninstallMCP(path, backups)
	}
	if err != nil {
		return err
	}
	foldMCP(rep, m)
	return nil
}

// foldMCP adds what an MCP registration did (m) to the host's report.
func foldMCP(rep *install.Report, m install.Report) {
	for _, l := range [][]string{m.Added, m.Updated, m.Removed} {
		for _, x := range l {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %s %s", m.Path, m.Action, x))
		}
	}
	rep.Notes = append(rep.Notes, m.Notes...)
	if m.Backup != "" && m.Path != rep.Path {
		rep.Notes = append(rep.Notes, "backup of the previous "+filepath.Base(m.Path)+": "+m.Backup)
	}
}

// foldInstall adds what registering the MCP server (m) did to the report
// of installing the hooks beside it: a change to either is an update.
func foldInstall(rep *install.Report, m install.Report) {
	if rep.Action == install.ActionUnchanged && m.Action != install.ActionUnchanged {
		rep.Action = install.ActionUpdated
	}
	foldMCP(rep, m)
}

// foldUninstall adds to an uninstall's report of the hooks what removing
// the agent files and the MCP server (m) did.
func foldUninstall(rep *install.Report, agents, m install.Report) {
	rep.Notes = append(rep.Notes, agents.Notes...)
	rep.Warnings = append(rep.Warnings, agents.Warnings...)
	if rep.Action == install.ActionNothingToDo && m.Action == install.ActionRemoved {
		rep.Action = install.ActionRemoved
	}
	foldMCP(rep, m)
}

// mcpCheck is doctor's verdict on the MCP registration of a host in path
// (registered, problem, err from the install package's Inspect…MCP).
func mcpCheck(host, path string, reg bool, problem string, err error, governance bool) Check {
	name := host + " MCP tools"
	switch {
	case err != nil:
		return Check{name, Problem, fmt.Sprintf("%s: %v", path, err)}
	case problem != "" && reg:
		return Check{name, Problem, fmt.Sprintf("%s: %s (the agent's intent and todo tools cannot start)", path, problem)}
	case problem != "":
		return Check{name, Problem, fmt.Sprintf("%s: %s", path, problem)}
	case !reg && governance:
		return Check{name, Note, fmt.Sprintf("%s: not registered (governance is enabled: without these tools the agent cannot select an intent, so its writes are blocked; run 'atreides install %s')", path, host)}
	case !reg:
		return Check{name, OK, path + ": not registered"}
	}
	return Check{name, OK, path + ": atreides registered"}
}

// claudeDoctor checks the MCP registration in .mcp.json.
func claudeDoctor(env Env, _ []install.Status) []Check {
	path := claude.MCPPath(env.ProjectDir)
	reg, problem, err := claude.InspectMCP(path)
	return []Check{mcpCheck("claude", path, reg, problem, err, env.Governance)}
}

// claudeAgents is how claude takes the roster (see the host entry).
var claudeAgents = AgentFacts{
	Dir:  func(env Env, scope install.Scope) string { return dotDir(env, scope, ".claude", "agents") },
	Form: claude.AgentForm,
}

// claudeCommands is how claude takes the slash commands (see the entry).
var claudeCommands = CommandFacts{
	Dir:  func(env Env, scope install.Scope) string { return dotDir(env, scope, ".claude", "commands") },
	Form: claude.CommandForm,
}
