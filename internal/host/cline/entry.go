package cline

import (
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// Entry is the Cline CLI in the registry (internal/host/all): a hook file
// per event in the project's .clinerules/hooks/ or the user's
// ~/.cline/hooks/ ($CLINE_DIR/hooks).
var Entry = host.Host{
	Name: Host, Display: "Cline CLI", Adapter: Adapter{}, Facts: &Facts, Lacks: Lacks, Via: host.Hook,
	Scopes: []install.Scope{install.ScopeProject, install.ScopeUser},
	Path: func(env host.Env, scope install.Scope) string {
		return hookPath(env, scope)
	},
	Install:   installCline,
	Uninstall: uninstallCline,
	Inspect:   Inspect,
	// Every hook directory Cline 3.0.65 searches, whole: any executable
	// there runs on every event, and one of them can cancel a call or
	// rewrite its input after atreides judged it (Cline takes the last
	// hook's overrideInput).
	HookFiles: func(env host.Env) []string {
		var out []string
		if env.ProjectDir != "" {
			out = append(out, dirOf(env, install.ScopeProject)+"/", filepath.Join(env.ProjectDir, ".cline", "hooks")+"/")
		}
		if env.Home != "" || env.Getenv("CLINE_DIR") != "" {
			out = append(out, dirOf(env, install.ScopeUser)+"/", MCPPath(env))
		}
		if env.Home != "" {
			out = append(out, filepath.Join(env.Home, "Documents", "Cline", "Hooks")+"/")
		}
		return out
	},
	Programs:   []string{"cline"},
	ConfigDirs: func(env host.Env) []string { return host.UserConfig(env, ".cline") },
	// The CLI has no switch that skips hooks in 3.0.65 (its yolo mode,
	// which would, has no flag); --config moves the user's hooks, but the
	// project's run wherever the config is.
	CLI: guard.AgentCLI{Display: "Cline CLI", Names: []string{"cline"}},
	// Cline sets CLINE_DATA_DIR, CLINE_SESSION_DATA_DIR and others in
	// every process it starts (seen in its shell tool's environment);
	// none names the session.
	Markers:   []host.Marker{{Name: "CLINE_SESSION_DATA_DIR"}},
	AgentVars: []string{"CLINE_SESSION_DATA_DIR"},
	// No agent files: spawn_agent takes its system prompt in the call.
	// (3.0.65 looks for agent configurations in .cline/agents and
	// ~/.cline/agents, for its teams; not checked, not written.)
	Agents: host.AgentFacts{Builtin: builtinAgents},
	// Its workflows are the slash commands: see CommandForm.
	Commands: clineCommands,

	Start: "write the hook files in .clinerules/hooks/",
	Writes: `.clinerules/hooks/<Event>, one executable per event, and the
commands in .clinerules/workflows/ (--user: in ~/.cline/ or
$CLINE_DIR/, hooks/ and workflows/, and the MCP server in
data/settings/cline_mcp_settings.json)`,

	Doctor: clineDoctor,
}

// dirOf is the hook directory of a scope in env.
func dirOf(env host.Env, scope install.Scope) string {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return HooksDir(scope, env.ProjectDir, env.Home, getenv("CLINE_DIR"))
}

// hookPath is the file install writes first in a scope, which stands for
// the scope's hooks (Entry.Path).
func hookPath(env host.Env, scope install.Scope) string {
	return filepath.Join(dirOf(env, scope), Events[0])
}

// configDir is Cline's config directory: $CLINE_DIR, else ~/.cline.
func configDir(env host.Env) string {
	if env.Getenv != nil {
		if d := env.Getenv("CLINE_DIR"); d != "" {
			return d
		}
	}
	return filepath.Join(env.Home, ".cline")
}

// MCPPath is the file Cline 3.0.65 reads its MCP servers from: the data
// directory's settings/cline_mcp_settings.json, the data directory being
// <config dir>/data unless `cline --data-dir` moves it. It is the
// user's alone: Cline reads no MCP servers from a project.
func MCPPath(env host.Env) string {
	return filepath.Join(configDir(env), "data", "settings", "cline_mcp_settings.json")
}

// mcpFile is atreides's MCP server in Cline's file. Cline sets no
// variable atreides tells it by in its MCP servers' environment that is
// not also in every other process it starts, so the server is told.
func mcpFile(env host.Env) install.MCPFile {
	return install.MCPFile{Host: Host, Path: MCPPath(env), BackupDir: env.BackupDir(install.ScopeUser), HostArg: true}
}

// clineCommands is how Cline takes the slash commands: workflows in the
// project's .clinerules/workflows, or the user's <config dir>/workflows.
var clineCommands = host.CommandFacts{
	Builtin: builtinCommands,
	Dir:     clineCommandsDir,
	Form:    CommandForm,
}

// clineCommandsDir is clineCommands.Dir, a named function: the host's entry
// copies clineCommands, and a func literal there would be copied when the
// program starts instead of being static data.
func clineCommandsDir(env host.Env, scope install.Scope) string {
	if scope == install.ScopeUser {
		return filepath.Join(configDir(env), "workflows")
	}
	return filepath.Join(env.ProjectDir, ".clinerules", "workflows")
}

// installCline writes the hook files and the workflows, and for the user
// registers the MCP server (Cline's MCP file is the user's: a project
// install leaves it).
// A part o leaves out is removed instead.
func installCline(env host.Env, o host.Options) (install.Report, error) {
	rep, err := Install(InstallOptions{Dir: dirOf(env, o.Scope), BinaryPath: o.Binary, Timeout: o.TimeoutSeconds, BackupDir: env.BackupDir(o.Scope)})
	if err != nil {
		return rep, err
	}
	if err := host.WithCommands(env, &rep, Host, Facts.ToolPrefix, clineCommands, o.Scope, o.Has(host.PartCommands)); err != nil {
		return rep, err
	}
	if o.Scope != install.ScopeUser {
		if o.Has(host.PartMCP) {
			rep.Notes = append(rep.Notes, "Cline reads MCP servers only from the user's "+MCPPath(env)+": 'atreides install cline --user' registers atreides's tools there")
		}
		return rep, nil
	}
	var m install.Report
	if o.Has(host.PartMCP) {
		m, err = mcpFile(env).Install(o.Binary)
	} else {
		m, err = mcpFile(env).Uninstall()
	}
	if err != nil {
		return rep, err
	}
	host.FoldInstall(&rep, m)
	return rep, nil
}

// uninstallCline undoes installCline in the reverse order: the MCP
// server and the workflows first, so that the directories the hook files
// made are empty when they go.
func uninstallCline(env host.Env, scope install.Scope) (install.Report, error) {
	var m, cmds install.Report
	if scope == install.ScopeUser {
		var err error
		if m, err = mcpFile(env).Uninstall(); err != nil {
			return m, err
		}
	}
	if err := host.WithCommands(env, &cmds, Host, Facts.ToolPrefix, clineCommands, scope, false); err != nil {
		return cmds, err
	}
	rep, err := Uninstall(dirOf(env, scope), env.BackupDir(scope))
	host.FoldUninstall(&rep, cmds, m)
	return rep, err
}

// clineDoctor says what doctor must know beyond the files: a foreign hook
// file in an event's place, and whether atreides's MCP server is
// registered for the user.
func clineDoctor(env host.Env, found []install.Status) []host.Check {
	var out []host.Check
	for _, st := range found {
		if st.Disabled != "" {
			out = append(out, host.Check{Name: "cline hooks", Status: host.Problem, Detail: st.Disabled})
		}
		for _, n := range st.Notes {
			out = append(out, host.Check{Name: "cline hooks", Status: host.Problem, Detail: n + ": atreides does not see that event there"})
		}
	}
	reg, problem, err := mcpFile(env).Inspect()
	return append(out, host.MCPCheck(Host, MCPPath(env), reg, problem, err, env.Governance))
}
