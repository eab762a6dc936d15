package hosts

import (
	"fmt"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/install"
)

// Claude Code: settings.json per scope, and the project's .mcp.json for
// atreides's MCP tools alongside a project or local install.
var claudeHost = Host{
	Name: "claude", Display: "Claude Code", Adapter: claude.Adapter{}, Via: Hook,
	Scopes:     []install.Scope{install.ScopeProject, install.ScopeLocal, install.ScopeUser},
	Path:       claudePath,
	Install:    installClaude,
	Uninstall:  uninstallClaude,
	Inspect:    install.InspectClaude,
	Programs:   []string{"claude"},
	ConfigDirs: func(env Env) []string { return userConfig(env, ".claude") },
	// Claude Code 2.1.330 reads these itself, and has the built-in
	// subagent types Explore and Plan besides general-purpose.
	Instructions: []string{"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"},
	Agents:       map[string]string{"explore": "Explore", "plan": "Plan"},
	// Its Edit and Write refuse a file not read first ("File has not been
	// read yet. Read it first before writing to it."), and one changed
	// since it was read.
	ReadsBeforeWrite: true,
	// Claude Code 2.1.330 names an MCP tool mcp__<server>__<tool>.
	ToolPrefix: "mcp__atreides__",
	Compact:    "/compact",
	Doctor:     claudeDoctor,
}

func claudePath(env Env, scope install.Scope) string {
	return install.ClaudeSettingsPath(scope, env.ProjectDir, env.Home)
}

func installClaude(env Env, o Options) (install.Report, error) {
	rep, err := install.InstallClaude(install.ClaudeOptions{
		SettingsPath: claudePath(env, o.Scope), BinaryPath: o.Binary,
		TimeoutSeconds: o.TimeoutSeconds, BackupDir: env.BackupDir(o.Scope),
	})
	if err != nil {
		return rep, err
	}
	return rep, withClaudeMCP(env, &rep, o.Scope, o.Binary, true)
}

func uninstallClaude(env Env, scope install.Scope) (install.Report, error) {
	rep, err := install.UninstallClaude(claudePath(env, scope), env.BackupDir(scope))
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
	path := install.ClaudeMCPPath(env.ProjectDir)
	backups := env.BackupDir(install.ScopeProject)
	var m install.Report
	var err error
	if add {
		m, err = install.InstallClaudeMCP(path, install.PortableBinary, backups)
	} else {
		m, err = install.UninstallClaudeMCP(path, backups)
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
	path := install.ClaudeMCPPath(env.ProjectDir)
	reg, problem, err := install.InspectClaudeMCP(path)
	return []Check{mcpCheck("claude", path, reg, problem, err, env.Governance)}
}
