package copilot

import (
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// Entry is GitHub Copilot CLI in the registry (internal/host/all): a hooks
// file of atreides's own in ~/.copilot/hooks (the default: Copilot loads it
// in every mode) or in the project's .github/hooks.
var Entry = host.Host{
	Name: Host, Display: "GitHub Copilot CLI", Adapter: Adapter{}, Facts: &Facts, Lacks: Lacks, Via: host.Hook,
	Scopes:    scopes,
	Path:      hooksPath,
	Install:   installCopilot,
	Uninstall: uninstallCopilot,
	Inspect:   Inspect,
	// Every hooks file Copilot loads sits in these two directories; its
	// settings files (the user's settings.json and legacy config.json, the
	// project's .github/copilot/settings.json and settings.local.json, all
	// read by 1.0.102) can hold hooks of their own, disableAllHooks and
	// disabledHooks; mcp-config.json starts programs.
	HookFiles: func(env host.Env) []string {
		var out []string
		if env.ProjectDir != "" {
			settings := filepath.Join(env.ProjectDir, ".github", "copilot")
			out = append(out, filepath.Join(env.ProjectDir, ".github", "hooks")+"/",
				filepath.Join(settings, "settings.json"), filepath.Join(settings, "settings.local.json"))
		}
		if env.Home != "" {
			dir := UserDir(env.Home, env.Var("COPILOT_HOME"))
			out = append(out, filepath.Join(dir, "hooks")+"/", filepath.Join(dir, "settings.json"),
				filepath.Join(dir, "config.json"), filepath.Join(dir, "mcp-config.json"))
		}
		return out
	},
	Programs:   []string{"copilot"},
	ConfigDirs: func(env host.Env) []string { return host.UserConfig(env, ".copilot") },
	// --allow-all-tools (and its wider forms) lets every tool run without
	// asking; a hook's deny still holds under it (verified), but what it
	// would have asked runs, so starting it so is judged an unguarded start.
	// COPILOT_ALLOW_ALL (any truthy value) is --allow-all-tools by
	// another name ("true" also trusts the folder), and COPILOT_HOME moves
	// ~/.copilot, where the default install's hooks are, away.
	CLI: guard.AgentCLI{Display: "GitHub Copilot CLI", Names: []string{"copilot"}, Off: []string{"--allow-all-tools", "--allow-all", "--yolo"},
		OffEnv: []string{"COPILOT_ALLOW_ALL", "COPILOT_HOME"}},
	// It sets COPILOT_AGENT_SESSION_ID in its MCP servers' environment,
	// and COPILOT_CLI=1 in its hooks' (observed with a server and a hook
	// that dumped it).
	Markers: []host.Marker{{Name: "COPILOT_AGENT_SESSION_ID"}, {Name: "COPILOT_CLI", Value: "1"}},
	// Its bash tool's commands carry COPILOT_CLI=1 and the session's id in
	// COPILOT_AGENT_SESSION_ID (1.0.102).
	AgentVars:  []string{"COPILOT_CLI", "COPILOT_AGENT_SESSION_ID"},
	SessionVar: "COPILOT_AGENT_SESSION_ID",
	// Its custom agents are <id>.agent.md in ~/.copilot/agents or the
	// project's .github/agents, started with the task tool; subagentStart
	// carries the agent's id, on which its skills are injected.
	// Its MCP servers: mcpServers of $COPILOT_HOME/mcp-config.json, where
	// install registers atreides's.
	MCPConfig: []host.MCPSource{{Path: func(env host.Env) string {
		if env.Home == "" && env.Var("COPILOT_HOME") == "" {
			return ""
		}
		return mcpPath(env)
	}, Key: "mcpServers"}},
	Agents: copilotAgents,
	// No commands: 1.0.102 reads no slash-command files of the user's
	// that atreides could write (its own commands are built in; skills
	// are the model's to load, not the user's to type). Its own are
	// listed all the same, for the names no host may see atreides take.
	Commands: host.CommandFacts{Builtin: builtinCommands},

	Start: "register the hooks in ~/.copilot/hooks/atreides.json",
	Writes: `~/.copilot/hooks/atreides.json (--project:
.github/hooks/atreides.json, which copilot -p loads only with
--trust-folder, COPILOT_ALLOW_ALL=true or
GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true)`,

	Doctor: copilotDoctor,
}

// scopes are Copilot's scopes, the default first.
var scopes = []install.Scope{install.ScopeUser, install.ScopeProject}

func hooksPath(env host.Env, scope install.Scope) string {
	return HooksPath(scope, env.ProjectDir, env.Home, env.Var("COPILOT_HOME"))
}

// installCopilot writes the hooks file, then (for the user) the MCP
// server, then the agent files.
func installCopilot(env host.Env, o host.Options) (install.Report, error) {
	var m install.Report
	if o.Scope == install.ScopeUser && !o.Has(host.PartMCP) {
		var err error
		if m, err = UninstallMCP(mcpPath(env), env.BackupDir(o.Scope)); err != nil {
			return m, err
		}
	}
	rep, err := Install(InstallOptions{
		HooksPath: hooksPath(env, o.Scope), BinaryPath: o.Binary,
		TimeoutSeconds: o.TimeoutSeconds, BackupDir: env.BackupDir(o.Scope),
	})
	if err != nil {
		return rep, err
	}
	if o.Scope == install.ScopeProject && rep.Action != install.ActionUnchanged {
		rep.Notes = append(rep.Notes, repoHooksNote)
	}
	if o.Scope == install.ScopeUser && o.Has(host.PartMCP) {
		if m, err = InstallMCP(mcpPath(env), o.Binary, env.BackupDir(o.Scope)); err != nil {
			return rep, err
		}
	}
	host.FoldInstall(&rep, m)
	return rep, host.WithAgents(env, &rep, Host, copilotAgents, o.Scope, host.AgentsOf(&o))
}

// uninstallCopilot removes the agent files and the MCP server, then the
// hooks file, whose undo record holds the directories install made first
// (~/.copilot itself on a new machine): they go once empty.
func uninstallCopilot(env host.Env, scope install.Scope) (install.Report, error) {
	var agentsRep, m install.Report
	if err := host.WithAgents(env, &agentsRep, Host, copilotAgents, scope, nil); err != nil {
		return agentsRep, err
	}
	if scope == install.ScopeUser {
		var err error
		if m, err = UninstallMCP(mcpPath(env), env.BackupDir(scope)); err != nil {
			return m, err
		}
	}
	rep, err := Uninstall(hooksPath(env, scope), env.BackupDir(scope))
	host.FoldUninstall(&rep, agentsRep, m)
	return rep, err
}

func mcpPath(env host.Env) string { return MCPPath(env.Home, env.Var("COPILOT_HOME")) }

// copilotAgents is how Copilot takes the roster (see the entry).
var copilotAgents = host.AgentFacts{
	// 1.0.102's own agents (builtin.go) include explore; the roster's is
	// atreides-explore beside it.
	Builtin: builtinAgents,
	Dir:     copilotAgentsDir,
	Form:    AgentForm,
}

// copilotAgentsDir is copilotAgents.Dir, a named function: the host's entry
// copies copilotAgents, and a func literal there would be copied when the
// program starts instead of being static data.
func copilotAgentsDir(env host.Env, scope install.Scope) string {
	if scope == install.ScopeUser {
		return filepath.Join(UserDir(env.Home, env.Var("COPILOT_HOME")), "agents")
	}
	return filepath.Join(env.ProjectDir, ".github", "agents")
}

// repoHooksNote says when Copilot runs a repository's hooks (verified on
// 1.0.102).
const repoHooksNote = "GitHub Copilot CLI runs .github/hooks in an interactive session of a trusted folder, but copilot -p only with --trust-folder, COPILOT_ALLOW_ALL=true or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true: without one of them atreides does not guard it; 'atreides install copilot' (the user's ~/.copilot/hooks) guards every run"
