package codex

import (
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// Entry is Codex in the registry (internal/host/all): hooks.json, and
// atreides's MCP server in the config.toml beside it, in the user's
// $CODEX_HOME (the default: a project's .codex loads only once the project
// is trusted in ~/.codex/config.toml, which atreides leaves to the user, so
// a project install would silently do nothing until then) or the project.
var Entry = host.Host{
	Name: Host, Display: "Codex", Adapter: Adapter{}, Facts: &Facts, Lacks: Lacks, Via: host.Hook,
	Scopes:     []install.Scope{install.ScopeUser, install.ScopeProject},
	Path:       codexPath,
	Install:    installCodex,
	Uninstall:  uninstallCodex,
	Inspect:    Inspect,
	HookFiles:  codexHookFiles,
	Programs:   []string{"codex"},
	ConfigDirs: func(env host.Env) []string { return []string{codexHome(env)} },
	// -c can set any configuration key, hooks among them.
	CLI: guard.AgentCLI{Display: "Codex", Names: []string{"codex"},
		Off:         []string{"--dangerously-bypass-approvals-and-sandbox", "--yolo"},
		OffContains: []guard.FlagValue{{Flag: "-c", Value: "hook"}, {Flag: "--config", Value: "hook"}}},
	// Its sandbox sets CODEX_SANDBOX (and CODEX_SANDBOX_NETWORK_DISABLED
	// when the network is off) in the commands it runs, and CODEX_THREAD_ID
	// names the thread; the guard keeps every CODEX_SANDBOX variable.
	AgentVars: []string{"CODEX_SANDBOX*", "CODEX_SANDBOX_NETWORK_DISABLED", "CODEX_THREAD_ID"},
	// Its agent roles are TOML files in agents/ of $CODEX_HOME or the
	// project's .codex, started with spawn_agent's agent_type.
	// SubagentStart names the role (agent_type), so skills are injected
	// when the agent starts.
	// Its MCP servers: the mcp_servers tables of the user's
	// $CODEX_HOME/config.toml and of a trusted project's .codex/config.toml.
	MCPConfig: []host.MCPSource{
		{Path: func(env host.Env) string {
			if env.Home == "" && env.Var("CODEX_HOME") == "" {
				return ""
			}
			return host.Under(Home(env.Var("CODEX_HOME"), env.Home), "config.toml")
		}, Key: "mcp_servers", TOML: true},
		{Path: func(env host.Env) string { return host.Under(env.ProjectDir, ".codex", "config.toml") }, Key: "mcp_servers", TOML: true},
	},
	Agents: codexAgents,
	// No commands: atreides writes no command files for Codex (it has
	// never had a form for them); its built-in ones are listed
	// all the same, for the names no host may see atreides take.
	Commands: host.CommandFacts{Builtin: builtinCommands},

	Start: "register the hooks in ~/.codex/hooks.json (then trust them in Codex's /hooks)",
	Writes: `~/.codex/hooks.json or $CODEX_HOME/hooks.json (the default;
--project: .codex/hooks.json, loaded only once the project is
trusted in ~/.codex/config.toml, which atreides never does for
you), and the MCP server [mcp_servers.atreides] in the
config.toml beside it`,

	Doctor: codexDoctor,
}

// codexHookFiles are the hooks.json of the project, of $CODEX_HOME and of
// ~/.codex (CODEX_HOME may change between sessions), each with the
// config.toml beside it, which can switch the hooks off.
func codexHookFiles(env host.Env) []string {
	var out []string
	with := func(hooks string) { out = append(out, hooks, filepath.Join(filepath.Dir(hooks), "config.toml")) }
	if env.ProjectDir != "" {
		with(HooksPath(install.ScopeProject, env.ProjectDir, ""))
	}
	if env.Home != "" || env.Getenv("CODEX_HOME") != "" {
		with(HooksPath(install.ScopeUser, env.ProjectDir, codexHome(env)))
	}
	if env.Home != "" {
		with(HooksPath(install.ScopeUser, env.ProjectDir, Home("", env.Home)))
	}
	return out
}

func codexHome(env host.Env) string { return Home(env.Getenv("CODEX_HOME"), env.Home) }

// codexScope is the scope of one of Codex's hooks files.
func codexScope(env host.Env, path string) install.Scope {
	if path == codexPath(env, install.ScopeProject) {
		return install.ScopeProject
	}
	return install.ScopeUser
}

func codexPath(env host.Env, scope install.Scope) string {
	return HooksPath(scope, env.ProjectDir, codexHome(env))
}

// codexDoctor reports hooks switched off in a config.toml, atreides
// installed in both of Codex's files (Codex runs matching hooks from
// every file, so each call would be judged twice) and reminds that
// Codex's hook trust cannot be seen from outside.
func codexDoctor(env host.Env, found []install.Status) []host.Check {
	in := map[install.Scope]bool{}
	for _, st := range found {
		in[codexScope(env, st.Path)] = len(st.Events) > 0
	}
	out := append(featuresDoctor(env, found), codexMCPDoctor(env, in)...)
	if in[install.ScopeProject] && in[install.ScopeUser] {
		out = append(out, host.Check{Name: "codex hooks", Status: host.Problem, Detail: "atreides is in both the user and the project hooks.json: Codex runs both, so every call is judged twice; run 'atreides uninstall codex --project' or '--user'"})
	}
	if in[install.ScopeProject] || in[install.ScopeUser] {
		sc := install.ScopeUser
		if in[install.ScopeProject] {
			sc = install.ScopeProject
		}
		out = append(out, host.Check{Name: "codex trust", Status: host.Note, Detail: "atreides cannot see whether Codex trusts its hooks: " + strings.Join(trustNotes(sc, env.ProjectDir), "; ")})
	}
	return out
}

// codexMCPDoctor checks the MCP server in the config.toml of each scope
// whose hooks.json has atreides, else in the user's.
func codexMCPDoctor(env host.Env, in map[install.Scope]bool) []host.Check {
	var out []host.Check
	for _, sc := range []install.Scope{install.ScopeUser, install.ScopeProject} {
		if in[sc] || sc == install.ScopeUser && !in[install.ScopeProject] {
			path := codexConfigPath(env, sc)
			reg, problem, err := InspectMCP(path)
			out = append(out, host.MCPCheck(Host, path, reg, problem, err, env.Governance))
		}
	}
	return out
}

func codexConfigPath(env host.Env, scope install.Scope) string {
	return configPath(scope, env.ProjectDir, codexHome(env))
}

// installCodex writes the hooks, then the MCP server into the config.toml
// beside them, then the agent files; a part o leaves out is removed
// instead (the MCP server first, before the hooks are written).
func installCodex(env host.Env, o host.Options) (install.Report, error) {
	var m install.Report
	var err error
	if !o.Has(host.PartMCP) {
		if m, err = UninstallMCP(codexConfigPath(env, o.Scope), env.BackupDir(o.Scope)); err != nil {
			return m, err
		}
	}
	rep, err := Install(InstallOptions{
		HooksPath: codexPath(env, o.Scope), BinaryPath: o.Binary, TimeoutSeconds: o.TimeoutSeconds,
		Scope: o.Scope, ProjectDir: env.ProjectDir, BackupDir: env.BackupDir(o.Scope),
	})
	if err != nil {
		return rep, err
	}
	if o.Has(host.PartMCP) {
		if m, err = InstallMCP(codexConfigPath(env, o.Scope), o.Binary, env.BackupDir(o.Scope)); err != nil {
			return rep, err
		}
	}
	host.FoldInstall(&rep, m)
	return rep, host.WithAgents(env, &rep, Host, codexAgents, o.Scope, host.AgentsOf(&o))
}

// uninstallCodex undoes installCodex in reverse order: each step removes
// the directories install created (.codex) only once they are empty.
func uninstallCodex(env host.Env, scope install.Scope) (install.Report, error) {
	// A hooks.json that cannot be read stops the uninstall before
	// anything changed, not halfway.
	if _, err := Inspect(codexPath(env, scope)); err != nil {
		return install.Report{Host: Host, Path: codexPath(env, scope)}, err
	}
	var agentsRep install.Report
	if err := host.WithAgents(env, &agentsRep, Host, codexAgents, scope, nil); err != nil {
		return agentsRep, err
	}
	m, err := UninstallMCP(codexConfigPath(env, scope), env.BackupDir(scope))
	if err != nil {
		return m, err
	}
	rep, err := Uninstall(codexPath(env, scope), env.BackupDir(scope))
	host.FoldUninstall(&rep, agentsRep, m)
	return rep, err
}

// codexAgents is how codex takes the roster (see the host entry).
var codexAgents = host.AgentFacts{
	Builtin: builtinAgents,
	Dir:     codexAgentsDir,
	Form:    AgentForm,
}

// codexAgentsDir is codexAgents.Dir, a named function: the host's entry
// copies codexAgents, and a func literal there would be copied when the
// program starts instead of being static data.
func codexAgentsDir(env host.Env, scope install.Scope) string {
	if scope == install.ScopeUser {
		return filepath.Join(codexHome(env), "agents")
	}
	return filepath.Join(env.ProjectDir, ".codex", "agents")
}
