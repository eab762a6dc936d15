package all

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/install"
)

// Gemini CLI: settings.json in the project or the user's ~/.gemini.
var geminiHost = Host{
	Name: "gemini", Display: "Gemini CLI", Adapter: gemini.Adapter{}, Facts: &gemini.Facts, Lacks: gemini.Lacks, Via: Hook,
	Scopes: []install.Scope{install.ScopeProject, install.ScopeUser},
	Path: func(env Env, scope install.Scope) string {
		return gemini.SettingsPath(scope, env.ProjectDir, env.Home)
	},
	Install:   installGemini,
	Uninstall: uninstallGemini,
	Inspect:   gemini.Inspect,
	HookFiles: func(env Env) []string {
		var out []string
		if env.ProjectDir != "" {
			out = append(out, gemini.SettingsPath(install.ScopeProject, env.ProjectDir, env.Home))
		}
		if env.Home != "" {
			out = append(out, gemini.SettingsPath(install.ScopeUser, env.ProjectDir, env.Home))
		}
		return out
	},
	Programs:   []string{"gemini"},
	ConfigDirs: func(env Env) []string { return userConfig(env, ".gemini") },
	// It sets GEMINI_CLI=1 in its MCP servers' environment (observed with
	// a wrapper that dumped it).
	CLI: guard.AgentCLI{Display: "Gemini CLI", Names: []string{"gemini", "gemini-cli"}, Off: []string{"--yolo", "-y"},
		OffValue: []guard.FlagValue{{Flag: "--approval-mode", Value: "yolo"}}, OffShort: 'y'},
	Markers: []Marker{{"GEMINI_CLI", "1"}},
	// Gemini CLI 0.61.0 loads local agents from .gemini/agents/*.md and
	// ~/.gemini/agents/*.md (experimental.enableAgents, on by default) and
	// starts them with invoke_agent. A project's agents load only in a
	// trusted folder and once the user acknowledged each file's content in
	// the interactive CLI (~/.gemini/acknowledgments/agents.json, which
	// atreides never writes); the user's load as they are. It has no
	// subagent-start event to inject skills on: they go into the prompt.
	Agents: geminiAgents,
	// Its custom commands are .gemini/commands/<name>.toml (project, read
	// in a trusted folder) or ~/.gemini/commands: description and prompt,
	// with {{args}}.
	Commands: geminiCommands,

	Doctor: geminiDoctor,
}

// geminiDoctor reports hooks switched off in any of Gemini's files: it
// merges hooksConfig.disabled across them, so a name disabled in one
// disables atreides's hooks in all of them.
func geminiDoctor(env Env, found []install.Status) []Check {
	out := geminiHooksDoctor(found)
	// The MCP server of each file that has our hooks, else the project's.
	var paths []string
	for _, st := range found {
		if len(st.Events) > 0 {
			paths = append(paths, st.Path)
		}
	}
	if len(paths) == 0 {
		paths = []string{gemini.SettingsPath(install.ScopeProject, env.ProjectDir, env.Home)}
	}
	for _, path := range paths {
		reg, problem, err := gemini.InspectMCP(path)
		out = append(out, mcpCheck("gemini", path, reg, problem, err, env.Governance))
	}
	return out
}

func geminiHooksDoctor(found []install.Status) []Check {
	var disabled []string
	installed := false
	for _, st := range found {
		if st.Disabled != "" {
			disabled = append(disabled, st.Path+": "+st.Disabled)
		}
		installed = installed || len(st.Events) > 0
	}
	if len(disabled) == 0 {
		return nil
	}
	status := Note
	if installed {
		status = Problem
	}
	return []Check{{"gemini hooks", status, strings.Join(disabled, "; ")}}
}

// installGemini writes the hooks, then the MCP server, into the same
// settings file (its undo record, started by the hooks, covers both, so
// uninstalling an unchanged file gives back its bytes from before), then
// the agent files.
func installGemini(env Env, o Options) (install.Report, error) {
	path := gemini.SettingsPath(o.Scope, env.ProjectDir, env.Home)
	rep, err := gemini.Install(gemini.InstallOptions{
		SettingsPath: path, BinaryPath: o.Binary,
		TimeoutMillis: o.TimeoutSeconds * 1000, Scope: o.Scope, BackupDir: env.BackupDir(o.Scope),
	})
	if err != nil {
		return rep, err
	}
	m, err := gemini.InstallMCP(path, o.Binary, env.BackupDir(o.Scope))
	if err != nil {
		return rep, err
	}
	foldInstall(&rep, m)
	if err := withAgents(env, &rep, "gemini", geminiAgents, o.Scope, &o); err != nil {
		return rep, err
	}
	if err := withCommands(env, &rep, "gemini", gemini.Facts.ToolPrefix, geminiCommands, o.Scope, true); err != nil {
		return rep, err
	}
	if o.Scope == install.ScopeProject && len(o.Roster.Subagents()) > 0 {
		rep.Notes = append(rep.Notes, "Gemini CLI loads a project's agents only once you accept them in an interactive session (it asks when it finds new or changed agent files; headless runs skip them until then); 'atreides install gemini --user' installs them for you alone, without that step")
	}
	return rep, nil
}

// uninstallGemini removes the agent files first (the settings' uninstall
// removes the directories install created only once they are empty), then
// the hooks, then the MCP server (if restoring the file's old bytes did
// not take it already).
func uninstallGemini(env Env, scope install.Scope) (install.Report, error) {
	var agentsRep install.Report
	if err := withAgents(env, &agentsRep, "gemini", geminiAgents, scope, nil); err != nil {
		return agentsRep, err
	}
	if err := withCommands(env, &agentsRep, "gemini", gemini.Facts.ToolPrefix, geminiCommands, scope, false); err != nil {
		return agentsRep, err
	}
	path := gemini.SettingsPath(scope, env.ProjectDir, env.Home)
	rep, err := gemini.Uninstall(path, env.BackupDir(scope))
	if err != nil {
		foldUninstall(&rep, agentsRep, install.Report{})
		return rep, err
	}
	m, err := gemini.UninstallMCP(path, env.BackupDir(scope))
	foldUninstall(&rep, agentsRep, m)
	return rep, err
}

// geminiAgents is how gemini takes the roster (see the host entry).
var geminiAgents = AgentFacts{
	Dir:  func(env Env, scope install.Scope) string { return dotDir(env, scope, ".gemini", "agents") },
	Form: gemini.AgentForm, InlineSkills: true,
}

// geminiCommands is how gemini takes the slash commands (see the entry).
var geminiCommands = CommandFacts{
	Dir:  func(env Env, scope install.Scope) string { return dotDir(env, scope, ".gemini", "commands") },
	Form: gemini.CommandForm,
}
