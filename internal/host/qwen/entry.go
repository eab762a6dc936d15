package qwen

import (
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// Entry is Qwen Code in the registry (internal/host/all): settings.json in
// the project (the default: a headless run loads it with no trust prompt)
// or the user's ~/.qwen, with atreides's MCP server beside the hooks.
var Entry = host.Host{
	Name: Host, Display: "Qwen Code", Adapter: Adapter{}, Facts: &Facts, Lacks: Lacks, Via: host.Hook,
	Scopes:     []install.Scope{install.ScopeProject, install.ScopeUser},
	Path:       qwenPath,
	Install:    installQwen,
	Uninstall:  uninstallQwen,
	Inspect:    Inspect,
	HookFiles:  hookFiles,
	Programs:   []string{"qwen"},
	ConfigDirs: func(env host.Env) []string { return host.UserConfig(env, ".qwen") },
	// Qwen Code is a fork of Gemini CLI and kept its flags: --yolo (-y)
	// and --approval-mode yolo run every tool without confirmation. --bare
	// and --safe-mode start it with every hook switched off.
	CLI: guard.AgentCLI{Display: "Qwen Code", Names: []string{"qwen", "qwen-code"}, Off: []string{"--yolo", "-y", "--bare", "--safe-mode"},
		OffValue: []guard.FlagValue{{Flag: "--approval-mode", Value: "yolo"}}, OffShort: 'y'},
	// Its MCP servers inherit its own environment, which has no variable
	// of its own to tell it by (QWEN_CODE=1 is set in its shell tool's
	// commands only): the server is registered with --host qwen instead.
	// Qwen Code 0.24.4 sets QWEN_CODE=1 and QWEN_CODE_SESSION_ID (the hook
	// payloads' session_id) in its shell tool's commands.
	AgentVars:  []string{"QWEN_CODE", "QWEN_CODE_SESSION_ID"},
	SessionVar: "QWEN_CODE_SESSION_ID",
	// Its agents are .qwen/agents/<name>.md (project) or ~/.qwen/agents,
	// started with the agent tool; SubagentStart names the agent type, so
	// skills are injected when the agent starts.
	// Its MCP servers: mcpServers in the project's and the user's
	// settings.json, the files install writes the hooks to.
	MCPConfig: []host.MCPSource{
		{Path: func(env host.Env) string { return host.Under(env.ProjectDir, ".qwen", "settings.json") }, Key: "mcpServers"},
		{Path: func(env host.Env) string { return host.Under(env.Home, ".qwen", "settings.json") }, Key: "mcpServers"},
	},
	Agents: qwenAgents,
	// Its custom commands are .qwen/commands/<name>.md or ~/.qwen/commands.
	Commands: qwenCommands,

	Start: "register the hooks in .qwen/settings.json",
	Writes: `.qwen/settings.json (--user: ~/.qwen/settings.json), with the
MCP server "atreides" beside the hooks`,

	Doctor: qwenDoctor,
}

// hookFiles are the settings files Qwen Code 0.24.4 merges, each of which
// can hold hooks, disableAllHooks or a disabled hook: the project's and
// the user's, the user's moved by QWEN_HOME (Storage.getGlobalQwenDir:
// "~/" is the home, a relative value is taken from Qwen's working
// directory, the project's), and the system file
// QWEN_CODE_SYSTEM_SETTINGS_PATH names when it is set.
func hookFiles(env host.Env) []string {
	var out []string
	if env.ProjectDir != "" {
		out = append(out, qwenPath(env, install.ScopeProject))
	}
	if env.Home != "" {
		out = append(out, qwenPath(env, install.ScopeUser))
	}
	if d := env.Var("QWEN_HOME"); d != "" {
		if rest, ok := strings.CutPrefix(d, "~/"); ok && env.Home != "" {
			d = filepath.Join(env.Home, rest)
		} else if !filepath.IsAbs(d) && env.ProjectDir != "" {
			d = filepath.Join(env.ProjectDir, d)
		}
		if filepath.IsAbs(d) {
			out = append(out, filepath.Join(d, "settings.json"))
		}
	}
	if f := env.Var("QWEN_CODE_SYSTEM_SETTINGS_PATH"); filepath.IsAbs(f) {
		out = append(out, f)
	}
	return out
}

func qwenPath(env host.Env, scope install.Scope) string {
	return SettingsPath(scope, env.ProjectDir, env.Home)
}

// qwenDoctor reports a file that switches every hook off (Qwen merges the
// user's and the project's settings, so either one turns atreides off),
// and checks the MCP server of each file that has our hooks, else the
// project's.
func qwenDoctor(env host.Env, found []install.Status) []host.Check {
	var out []host.Check
	var paths []string
	installed := false
	for _, st := range found {
		installed = installed || len(st.Events) > 0
		if len(st.Events) > 0 {
			paths = append(paths, st.Path)
		}
	}
	for _, st := range found {
		if st.Disabled != "" {
			status := host.Note
			if installed {
				status = host.Problem
			}
			out = append(out, host.Check{Name: "qwen hooks", Status: status, Detail: st.Path + ": " + st.Disabled})
		}
	}
	if c, ok := trustCheck(env, found); ok {
		out = append(out, c)
	}
	if len(paths) == 0 {
		paths = []string{qwenPath(env, install.ScopeProject)}
	}
	for _, path := range paths {
		reg, problem, err := InspectMCP(path)
		out = append(out, host.MCPCheck(Host, path, reg, problem, err, env.Governance))
	}
	return out
}

// installQwen writes the hooks, then the MCP server, into the same
// settings file (its undo record, started by the hooks, covers both, so
// uninstalling an unchanged file gives back its bytes from before), then
// the agent and command files.
//
// A part o leaves out is removed instead, before the hooks are written
// (leaveOut: the same file and undo record as Gemini CLI's).
func installQwen(env host.Env, o host.Options) (install.Report, error) {
	path := qwenPath(env, o.Scope)
	pre, m, err := leaveOut(env, path, o)
	if err != nil {
		return pre, err
	}
	rep, err := Install(InstallOptions{
		SettingsPath: path, BinaryPath: o.Binary,
		TimeoutSeconds: o.TimeoutSeconds, BackupDir: env.BackupDir(o.Scope),
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
	if err := host.WithAgents(env, &rep, Host, qwenAgents, o.Scope, host.AgentsOf(&o)); err != nil {
		return rep, err
	}
	return rep, host.WithCommands(env, &rep, Host, Facts.ToolPrefix, qwenCommands, o.Scope, o.Has(host.PartCommands))
}

// uninstallQwen removes the agent and command files first (the settings'
// uninstall removes the directories install created only once they are
// empty), then the hooks, then the MCP server (if restoring the file's old
// bytes did not take it already).
func uninstallQwen(env host.Env, scope install.Scope) (install.Report, error) {
	var agentsRep install.Report
	if err := host.WithAgents(env, &agentsRep, Host, qwenAgents, scope, nil); err != nil {
		return agentsRep, err
	}
	if err := host.WithCommands(env, &agentsRep, Host, Facts.ToolPrefix, qwenCommands, scope, false); err != nil {
		return agentsRep, err
	}
	path := qwenPath(env, scope)
	rep, err := Uninstall(path, env.BackupDir(scope))
	if err != nil {
		host.FoldUninstall(&rep, agentsRep, install.Report{})
		return rep, err
	}
	m, err := UninstallMCP(path, env.BackupDir(scope))
	host.FoldUninstall(&rep, agentsRep, m)
	return rep, err
}

// qwenAgents is how qwen takes the roster (see the host entry).
var qwenAgents = host.AgentFacts{
	Builtin: builtinAgents,
	Dir:     qwenAgentsDir,
	Form:    AgentForm,
}

// qwenAgentsDir is qwenAgents.Dir, a named function: the host's entry
// copies qwenAgents, and a func literal there would be copied when the
// program starts instead of being static data.
func qwenAgentsDir(env host.Env, scope install.Scope) string {
	return host.DotDir(env, scope, ".qwen", "agents")
}

// qwenCommands is how qwen takes the slash commands (see the entry).
var qwenCommands = host.CommandFacts{
	Builtin: builtinCommands,
	Dir:     qwenCommandsDir,
	Form:    CommandForm,
}

// qwenCommandsDir is qwenCommands.Dir, a named function: the host's entry
// copies qwenCommands, and a func literal there would be copied when the
// program starts instead of being static data.
func qwenCommandsDir(env host.Env, scope install.Scope) string {
	return host.DotDir(env, scope, ".qwen", "commands")
}

// trustCheck notes that Qwen reads the project's settings only in a
// trusted folder when the user's settings turn folder trust on
// (security.folderTrust.enabled; off by default, and then every folder is
// trusted). Which folders are trusted is Qwen's own record, which
// atreides does not read: a note, not a problem.
func trustCheck(env host.Env, found []install.Status) (host.Check, bool) {
	project := false
	for _, st := range found {
		project = project || (st.Path == qwenPath(env, install.ScopeProject) && len(st.Events) > 0)
	}
	if !project || env.Home == "" {
		return host.Check{}, false
	}
	_, doc, err := spec.Inspect(qwenPath(env, install.ScopeUser))
	if err != nil || doc == nil {
		return host.Check{}, false
	}
	if on, ok := doc.Get("security").Get("folderTrust").Get("enabled").Bool(); !ok || !on {
		return host.Check{}, false
	}
	return host.Check{Name: "qwen trust", Status: host.Note, Detail: "folder trust is on in ~/.qwen/settings.json: Qwen Code runs the project's hooks only once you trust this folder (it asks in an interactive session)"}, true
}

// leaveOut removes the parts o leaves out before the hooks are written:
// the agent and command files, then the MCP server (m), which shares the
// hooks' file (see host.LeaveOut).
func leaveOut(env host.Env, path string, o host.Options) (pre, m install.Report, err error) {
	if err = host.LeaveOut(env, &pre, Host, Facts.ToolPrefix, qwenAgents, qwenCommands, &o); err != nil || o.Has(host.PartMCP) {
		return pre, m, err
	}
	m, err = UninstallMCP(path, env.BackupDir(o.Scope))
	return pre, m, err
}
