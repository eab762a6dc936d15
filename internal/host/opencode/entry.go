package opencode

import (
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// Entry is OpenCode in the registry (internal/host/all): a plugin file in
// the project's .opencode/plugin/ or the user's, which starts `atreides
// serve --stdio`.
var Entry = host.Host{
	Name: Host, Display: "OpenCode", Adapter: Adapter{}, Facts: &Facts, Lacks: Lacks, Via: host.Serve,
	Scopes: []install.Scope{install.ScopeProject, install.ScopeUser},
	Path: func(env host.Env, scope install.Scope) string {
		return pluginPath(openCodeDir(env, scope))
	},
	Install:    installOpenCode,
	Uninstall:  uninstallOpenCode,
	Inspect:    Inspect,
	HookFiles:  openCodeHookFiles,
	Programs:   []string{"opencode"},
	ConfigDirs: func(env host.Env) []string { return []string{openCodeDir(env, install.ScopeUser)} },
	// `opencode run` loads the plugins like the TUI: it runs guarded
	// only where atreides's plugin is installed.
	CLI: guard.AgentCLI{Display: "OpenCode", Names: []string{"opencode", "opencode-ai"},
		PluginRun: "run", PluginFile: PluginFile},
	// It sets OPENCODE=1 in its bash tool's commands.
	AgentVars: []string{"OPENCODE"},
	// The plugin's config hook adds the roster to OpenCode's agents in
	// memory (nothing on disk), with skills in their prompts; the task
	// tool starts a subagent. OpenCode's own build and plan (its primary
	// agents, which the user switches between) and explore and general
	// (its subagents) are kept: the roster's agents of those ids are not
	// injected, and explore is OpenCode's.
	// Its MCP servers: the "mcp" object of opencode.json(c) at the
	// project's root and in the user's config directory.
	MCPConfig: openCodeMCP,
	Agents:    openCodeAgents,
	// Its commands are markdown files in commands/ of the config
	// directory (.opencode or ~/.config/opencode), with $ARGUMENTS.
	Commands: openCodeCommands,

	Start: "a plugin in .opencode/plugin/ that runs 'atreides serve --stdio'",
	Writes: `.opencode/plugin/atreides.ts (--user: ~/.config/opencode/plugin/),
a plugin that starts 'atreides serve --stdio'; --offline also
marks OpenCode's dependency install as done`,

	Doctor: func(host.Env, []install.Status) []host.Check { return nil },
}

// openCodeConfigNames are the config files OpenCode reads in its config
// directories and at the project root; their "plugin" list can drop ours.
var openCodeConfigNames = []string{"opencode.json", "opencode.jsonc"}

// openCodeMCP are the files whose "mcp" object lists OpenCode's MCP
// servers: each of openCodeConfigNames, the project's and the user's. A
// list of named functions, static data, rather than closures over the
// names, which would be built when the program starts.
var openCodeMCP = []host.MCPSource{
	{Path: projectJSON, Key: "mcp"}, {Path: userJSON, Key: "mcp"},
	{Path: projectJSONC, Key: "mcp"}, {Path: userJSONC, Key: "mcp"},
}

func projectJSON(env host.Env) string  { return projectConfig(env, openCodeConfigNames[0]) }
func userJSON(env host.Env) string     { return userConfig(env, openCodeConfigNames[0]) }
func projectJSONC(env host.Env) string { return projectConfig(env, openCodeConfigNames[1]) }
func userJSONC(env host.Env) string    { return userConfig(env, openCodeConfigNames[1]) }

// projectConfig is the project's config file of the name.
func projectConfig(env host.Env, name string) string { return host.Under(env.ProjectDir, name) }

// userConfig is the user's config file of the name; "" when the user's
// config directory is not known.
func userConfig(env host.Env, name string) string {
	if xdg := env.Var("XDG_CONFIG_HOME"); env.Home == "" && !filepath.IsAbs(xdg) {
		return ""
	}
	return filepath.Join(ConfigDir(install.ScopeUser, env.ProjectDir, ConfigHome(env.Var("XDG_CONFIG_HOME"), env.Home)), name)
}

// openCodeHookFiles are the plugin directories and config files of the
// project, of the user, and of OPENCODE_CONFIG_DIR and OPENCODE_CONFIG
// when they are set.
func openCodeHookFiles(env host.Env) []string {
	var out []string
	dir := func(d string) { out = AppendDirHookFiles(out, d, openCodeConfigNames) }
	if env.ProjectDir != "" {
		dir(ConfigDir(install.ScopeProject, env.ProjectDir, ""))
		for _, n := range openCodeConfigNames {
			out = append(out, filepath.Join(env.ProjectDir, n))
		}
	}
	if xdg := env.Getenv("XDG_CONFIG_HOME"); env.Home != "" || filepath.IsAbs(xdg) {
		dir(ConfigDir(install.ScopeUser, env.ProjectDir, ConfigHome(xdg, env.Home)))
	}
	if d := env.Getenv("OPENCODE_CONFIG_DIR"); filepath.IsAbs(d) {
		dir(d)
	}
	if f := env.Getenv("OPENCODE_CONFIG"); filepath.IsAbs(f) {
		out = append(out, f)
	}
	return out
}

// AppendDirHookFiles appends the hook files of one config directory of a
// host of the family to out: its plugin directories (plugin/ and
// plugins/, whose every file is loaded) and its config files of the
// names given (whose "plugin" list can drop ours).
func AppendDirHookFiles(out []string, d string, configNames []string) []string {
	plugin := filepath.Dir(pluginPath(d))
	out = append(out, plugin+"/", plugin+"s/")
	for _, n := range configNames {
		out = append(out, filepath.Join(d, n))
	}
	return out
}

func openCodeDir(env host.Env, scope install.Scope) string {
	return ConfigDir(scope, env.ProjectDir, ConfigHome(env.Getenv("XDG_CONFIG_HOME"), env.Home))
}

// openCodeOffline lists the config directories whose dependency install
// OpenCode should consider done: the plugin's own and, for a project
// install, the user's, since OpenCode installs into both at start.
func openCodeOffline(env host.Env, o host.Options) []string {
	if !o.Offline {
		return nil
	}
	dirs := []string{openCodeDir(env, o.Scope)}
	if o.Scope == install.ScopeProject && env.Home != "" {
		dirs = append(dirs, filepath.Join(ConfigHome(env.Getenv("XDG_CONFIG_HOME"), env.Home), "opencode"))
	}
	return dirs
}

// openCodeAgents is how opencode takes the roster (see the host entry).
var openCodeAgents = host.AgentFacts{
	// Its own agents (builtin.go) keep their names; the roster's come
	// through the plugin as atreides-build, atreides-plan... beside them.
	Builtin: builtinAgents,
}

// installOpenCode writes the plugin, then the command files (or removes
// them when o leaves them out). Its agents and tools come through the
// plugin from 'atreides serve', which follows the project's preset.
func installOpenCode(env host.Env, o host.Options) (install.Report, error) {
	rep, err := Install(InstallOptions{
		ConfigDir: openCodeDir(env, o.Scope), BinaryPath: o.Binary,
		BackupDir: env.BackupDir(o.Scope), Offline: openCodeOffline(env, o),
	})
	if err != nil {
		return rep, err
	}
	return rep, host.WithCommands(env, &rep, Host, Facts.ToolPrefix, openCodeCommands, o.Scope, o.Has(host.PartCommands))
}

// uninstallOpenCode removes the command files first: the plugin's
// uninstall removes the directories install created (.opencode) only once
// they are empty.
func uninstallOpenCode(env host.Env, scope install.Scope) (install.Report, error) {
	var cmdRep install.Report
	if err := host.WithCommands(env, &cmdRep, Host, Facts.ToolPrefix, openCodeCommands, scope, false); err != nil {
		return cmdRep, err
	}
	dir := openCodeDir(env, scope)
	rep, err := Uninstall(dir, env.BackupDir(scope), []string{dir})
	host.FoldUninstall(&rep, cmdRep, install.Report{})
	return rep, err
}

// openCodeCommands is how opencode takes the slash commands (see the
// entry). 1.18.33 loads {command,commands}/**/*.md; atreides writes
// commands/, the folder OpenCode's own tips name.
var openCodeCommands = host.CommandFacts{
	Builtin: builtinCommands,
	Dir:     openCodeCommandsDir,
	Form:    CommandForm,
}

// openCodeCommandsDir is openCodeCommands.Dir, a named function: the host's entry
// copies openCodeCommands, and a func literal there would be copied when the
// program starts instead of being static data.
func openCodeCommandsDir(env host.Env, scope install.Scope) string {
	return filepath.Join(openCodeDir(env, scope), "commands")
}
