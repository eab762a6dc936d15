package all

import (
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host/codex"
	"github.com/atreides-dev/atreides/internal/install"
)

// Codex: hooks.json, and atreides's MCP server in the config.toml beside
// it, in the user's $CODEX_HOME (the default: a project's .codex loads
// only once the project is trusted in ~/.codex/config.toml, which atreides
// leaves to the user, so a project install would silently do nothing until
// then) or the project.
var codexHost = Host{
	Name: "codex", Display: "Codex", Adapter: codex.Adapter{}, Facts: &codex.Facts, Lacks: codex.Lacks, Via: Hook,
	Scopes:     []install.Scope{install.ScopeUser, install.ScopeProject},
	Path:       codexPath,
	Install:    installCodex,
	Uninstall:  uninstallCodex,
	Inspect:    codex.Inspect,
	HookFiles:  codexHookFiles,
	Programs:   []string{"codex"},
	ConfigDirs: func(env Env) []string { return []string{codexHome(env)} },
	// -c can set any configuration key, hooks among them.
	CLI: guard.AgentCLI{Display: "Codex", Names: []string{"codex"},
		Off:         []string{"--dangerously-bypass-approvals-and-sandbox", "--yolo"},
		OffContains: []guard.FlagValue{{Flag: "-c", Value: "hook"}, {Flag: "--config", Value: "hook"}}},
	// Its agent roles are TOML files in agents/ of $CODEX_HOME or the
	// project's .codex, started with spawn_agent's agent_type.
	// SubagentStart names the role (agent_type), so skills are injected
	// when the agent starts.
	Agents: codexAgents,

	Doctor: codexDoctor,
}

// codexHookFiles are the hooks.json of the project, of $CODEX_HOME and of
// ~/.codex (CODEX_HOME may change between sessions), each with the
// config.toml beside it, which can switch the hooks off.
func codexHookFiles(env Env) []string {
	var out []string
	with := func(hooks string) { out = append(out, hooks, filepath.Join(filepath.Dir(hooks), "config.toml")) }
	if env.ProjectDir != "" {
		with(codex.HooksPath(install.ScopeProject, env.ProjectDir, ""))
	}
	if env.Home != "" || env.Getenv("CODEX_HOME") != "" {
		with(codex.HooksPath(install.ScopeUser, env.ProjectDir, codexHome(env)))
	}
	if env.Home != "" {
		with(codex.HooksPath(install.ScopeUser, env.ProjectDir, codex.Home("", env.Home)))
	}
	return out
}

func codexHome(env Env) string { return codex.Home(env.Getenv("CODEX_HOME"), env.Home) }

// codexScope is the scope of one of Codex's hooks files.
func codexScope(env Env, path string) install.Scope {
	if path == codexPath(env, install.ScopeProject) {
		return install.ScopeProject
	}
	return install.ScopeUser
}

func codexPath(env Env, scope install.Scope) string {
	return codex.HooksPath(scope, env.ProjectDir, codexHome(env))
}

// codexDoctor reports atreides installed in both of Codex's files (Codex
// runs matching hooks from every file, so each call would be judged twice)
// and reminds that Codex's hook trust cannot be seen from outside.
func codexDoctor(env Env, found []install.Status) []Check {
	in := map[install.Scope]bool{}
	for _, st := range found {
		in[codexScope(env, st.Path)] = len(st.Events) > 0
	}
	out := codexMCPDoctor(env, in)
	if in[install.ScopeProject] && in[install.ScopeUser] {
		out = append(out, Check{"codex hooks", Problem, "atreides is in both the user and the project hooks.json: Codex runs both, so every call is judged twice; run 'atreides uninstall codex --project' or '--user'"})
	}
	if in[install.ScopeProject] || in[install.ScopeUser] {
		sc := install.ScopeUser
		if in[install.ScopeProject] {
			sc = install.ScopeProject
		}
		out = append(out, Check{"codex trust", Note, "atreides cannot see whether Codex trusts its hooks: " + strings.Join(codex.TrustNotes(sc, env.ProjectDir), "; ")})
	}
	return out
}

// codexMCPDoctor checks the MCP server in the config.toml of each scope
// whose hooks.json has atreides, else in the user's.
func codexMCPDoctor(env Env, in map[install.Scope]bool) []Check {
	var out []Check
	for _, sc := range []install.Scope{install.ScopeUser, install.ScopeProject} {
		if in[sc] || sc == install.ScopeUser && !in[install.ScopeProject] {
			path := codexConfigPath(env, sc)
			reg, problem, err := codex.InspectMCP(path)
			out = append(out, mcpCheck("codex", path, reg, problem, err, env.Governance))
		}
	}
	return out
}

func codexConfigPath(env Env, scope install.Scope) string {
	return codex.ConfigPath(scope, env.ProjectDir, codexHome(env))
}

// installCodex writes the hooks, then the MCP server into the config.toml
// beside them, then the agent files.
func installCodex(env Env, o Options) (install.Report, error) {
	rep, err := codex.Install(codex.InstallOptions{
		HooksPath: codexPath(env, o.Scope), BinaryPath: o.Binary, TimeoutSeconds: o.TimeoutSeconds,
		Scope: o.Scope, ProjectDir: env.ProjectDir, BackupDir: env.BackupDir(o.Scope),
	})
	if err != nil {
		return rep, err
	}
	m, err := codex.InstallMCP(codexConfigPath(env, o.Scope), o.Binary, env.BackupDir(o.Scope))
	if err != nil {
		return rep, err
	}
	foldInstall(&rep, m)
	return rep, withAgents(env, &rep, "codex", codexAgents, o.Scope, &o)
}

// uninstallCodex undoes installCodex in reverse order: each step removes
// the directories install created (.codex) only once they are empty.
func uninstallCodex(env Env, scope install.Scope) (install.Report, error) {
	// A hooks.json that cannot be read stops the uninstall before
	// anything changed, not halfway.
	if _, err := codex.Inspect(codexPath(env, scope)); err != nil {
		return install.Report{Host: "codex", Path: codexPath(env, scope)}, err
	}
	var agentsRep install.Report
	if err := withAgents(env, &agentsRep, "codex", codexAgents, scope, nil); err != nil {
		return agentsRep, err
	}
	m, err := codex.UninstallMCP(codexConfigPath(env, scope), env.BackupDir(scope))
	if err != nil {
		return m, err
	}
	rep, err := codex.Uninstall(codexPath(env, scope), env.BackupDir(scope))
	foldUninstall(&rep, agentsRep, m)
	return rep, err
}

// codexAgents is how codex takes the roster (see the host entry).
var codexAgents = AgentFacts{
	Dir: func(env Env, scope install.Scope) string {
		if scope == install.ScopeUser {
			return filepath.Join(codexHome(env), "agents")
		}
		return filepath.Join(env.ProjectDir, ".codex", "agents")
	},
	Form: codex.AgentForm,
}
