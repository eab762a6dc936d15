package kilo

import (
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/slash"
)

// Entry is Kilo Code in the registry (internal/host/all): OpenCode's
// plugin file in the project's .kilo/plugin/ or the user's
// ~/.config/kilo/plugin/, which starts `atreides serve --stdio --host kilo`.
var Entry = host.Host{
	// The adapter's flavor is flavor, spelled out: a copy of a pointer
	// from another variable would be made when the program starts.
	Name: Host, Display: "Kilo Code", Adapter: opencode.Adapter{Flavor: opencode.Flavor{Name: Host, Facts: &Facts, DepsPackage: depsPackage}},
	Facts: &Facts, Lacks: Lacks, Via: host.Serve,
	Scopes: []install.Scope{install.ScopeProject, install.ScopeUser},
	Path: func(env host.Env, scope install.Scope) string {
		return opencode.PluginPath(configDir(env, scope))
	},
	Install:   installKilo,
	Uninstall: uninstallKilo,
	Inspect:   inspect,
	HookFiles: hookFiles,
	Programs:  []string{"kilo", "kilocode"},
	ConfigDirs: func(env host.Env) []string {
		return []string{configDir(env, install.ScopeUser)}
	},
	// `kilo run` loads the plugins like the TUI: it runs guarded only
	// where atreides's plugin is installed. --pure (and KILO_PURE) runs it
	// without external plugins, so without atreides; 7.7.7's
	// KILO_DISABLE_PROJECT_CONFIG skips .kilo/ and .kilocode/, where the
	// default install's plugin is (refused even when a user install
	// would still load: the guard cannot tell which one Kilo will find).
	CLI: guard.AgentCLI{Display: "Kilo Code", Names: []string{"kilo", "kilocode"},
		PluginRun: "run", PluginFile: opencode.PluginFile, Off: []string{"--pure"},
		OffEnv: []string{"KILO_PURE", "KILO_DISABLE_PROJECT_CONFIG"}},
	// Kilo sets KILO_PID to its own pid in its own process (the plugin
	// tells its host by it), and every process it starts inherits it with
	// KILO=1.
	Markers: []host.Marker{{Name: "KILO_PID"}},
	// Its bash tool's commands carry KILO=1 (and OpenCode's OPENCODE=1,
	// which OpenCode's entry already names).
	AgentVars: []string{"KILO"},
	// The plugin's config hook adds the roster to Kilo's agents in memory,
	// as on OpenCode, under the prefixed names, beside Kilo's own
	// (builtin.go). Kilo reads an agent configured as "build" (OpenCode's
	// name) as its code agent, which would turn code into a subagent and
	// start its sessions in plan (seen with 7.7.7): atreides-build is not
	// that name.
	Agents: host.AgentFacts{Builtin: builtinAgents},
	// Its commands are OpenCode's markdown files with $ARGUMENTS, in
	// commands/ of .kilo or ~/.config/kilo.
	Commands: commands,

	Start: "a plugin in .kilo/plugin/ that runs 'atreides serve --stdio --host kilo'",
	Writes: `.kilo/plugin/atreides.ts (--user: ~/.config/kilo/plugin/), the
OpenCode plugin, which starts 'atreides serve --stdio --host kilo'
in Kilo; --offline also marks Kilo's dependency install as done`,

	Doctor: doctor,
}

// configDir is Kilo's config directory of a scope: the project's .kilo/,
// or the user's $XDG_CONFIG_HOME/kilo (~/.config/kilo).
func configDir(env host.Env, scope install.Scope) string {
	if scope == install.ScopeUser {
		return filepath.Join(opencode.ConfigHome(env.Getenv("XDG_CONFIG_HOME"), env.Home), "kilo")
	}
	return filepath.Join(env.ProjectDir, ".kilo")
}

// configNames are the config files Kilo reads in its config directories
// and at the project root (opencode.* as legacy names); their "plugin"
// list can drop ours.
var configNames = []string{"kilo.json", "kilo.jsonc", "opencode.json", "opencode.jsonc"}

// hookFiles are the plugin directories and config files Kilo 7.7.7 loads:
// the project's .kilo and legacy .kilocode and its root config files, the
// user's ~/.config/kilo (with its legacy config.json), ~/.kilo and
// ~/.kilocode, and KILO_CONFIG_DIR and KILO_CONFIG when set. It loads no
// .opencode directory.
func hookFiles(env host.Env) []string {
	var out []string
	dir := func(d string) { out = opencode.AppendDirHookFiles(out, d, configNames) }
	if env.ProjectDir != "" {
		dir(filepath.Join(env.ProjectDir, ".kilo"))
		dir(filepath.Join(env.ProjectDir, ".kilocode"))
		for _, n := range configNames {
			out = append(out, filepath.Join(env.ProjectDir, n))
		}
	}
	if xdg := env.Getenv("XDG_CONFIG_HOME"); env.Home != "" || filepath.IsAbs(xdg) {
		user := configDir(env, install.ScopeUser)
		dir(user)
		out = append(out, filepath.Join(user, "config.json"))
	}
	if env.Home != "" {
		dir(filepath.Join(env.Home, ".kilo"))
		dir(filepath.Join(env.Home, ".kilocode"))
	}
	if d := env.Getenv("KILO_CONFIG_DIR"); filepath.IsAbs(d) {
		dir(d)
	}
	if f := env.Getenv("KILO_CONFIG"); filepath.IsAbs(f) {
		out = append(out, f)
	}
	return out
}

// offline lists the config directories whose dependency install Kilo
// should consider done: the plugin's own and, for a project install, the
// user's, since Kilo installs into both at start.
func offline(env host.Env, o host.Options) []string {
	if !o.Offline {
		return nil
	}
	dirs := []string{configDir(env, o.Scope)}
	if o.Scope == install.ScopeProject && env.Home != "" {
		dirs = append(dirs, configDir(env, install.ScopeUser))
	}
	return dirs
}

// installKilo writes the plugin, then the command files (or removes them
// when o leaves them out), as OpenCode's install does.
func installKilo(env host.Env, o host.Options) (install.Report, error) {
	rep, err := opencode.Install(opencode.InstallOptions{
		ConfigDir: configDir(env, o.Scope), BinaryPath: o.Binary,
		BackupDir: env.BackupDir(o.Scope), Offline: offline(env, o), Flavor: flavor,
	})
	if err != nil {
		return rep, err
	}
	return rep, host.WithCommands(env, &rep, Host, Facts.ToolPrefix, commands, o.Scope, o.Has(host.PartCommands))
}

// uninstallKilo removes the command files first: the plugin's uninstall
// removes the directories install created (.kilo) only once they are
// empty.
func uninstallKilo(env host.Env, scope install.Scope) (install.Report, error) {
	var cmdRep install.Report
	if err := host.WithCommands(env, &cmdRep, Host, Facts.ToolPrefix, commands, scope, false); err != nil {
		return cmdRep, err
	}
	dir := configDir(env, scope)
	rep, err := flavor.Uninstall(dir, env.BackupDir(scope), []string{dir})
	host.FoldUninstall(&rep, cmdRep, install.Report{})
	return rep, err
}

// commands is how Kilo takes the slash commands: 7.7.7 loads
// {command,commands}/**/*.md of each config directory, OpenCode's form.
var commands = host.CommandFacts{
	Builtin: builtinCommands,
	Dir:     commandsDir,
	Form:    commandForm,
}

// commandsDir is commands.Dir, a named function: the host's entry
// copies commands, and a func literal there would be copied when the
// program starts instead of being static data.
func commandsDir(env host.Env, scope install.Scope) string {
	return filepath.Join(configDir(env, scope), "commands")
}

// commandForm is OpenCode's command form under Kilo's name, spelled out
// as static data (a copy of opencode.CommandForm made by a call would be
// work when the program starts).
var commandForm = install.CommandForm{
	Host: Host, Ext: ".md", Args: slash.Args,
	Render: opencode.RenderCommand,
}

// inspect is flavor.Inspect as a function: a method value in the entry
// would be made when the program starts.
func inspect(path string) (install.Status, error) { return flavor.Inspect(path) }
