package hosts

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/install"
)

// Gemini CLI: settings.json in the project or the user's ~/.gemini.
var geminiHost = Host{
	Name: "gemini", Display: "Gemini CLI", Adapter: gemini.Adapter{}, Via: Hook,
	Scopes: []install.Scope{install.ScopeProject, install.ScopeUser},
	Path: func(env Env, scope install.Scope) string {
		return install.GeminiSettingsPath(scope, env.ProjectDir, env.Home)
	},
	Install: func(env Env, o Options) (install.Report, error) {
		return install.InstallGemini(install.GeminiOptions{
			SettingsPath: install.GeminiSettingsPath(o.Scope, env.ProjectDir, env.Home), BinaryPath: o.Binary,
			TimeoutMillis: o.TimeoutSeconds * 1000, Scope: o.Scope, BackupDir: env.BackupDir(o.Scope),
		})
	},
	Uninstall: func(env Env, scope install.Scope) (install.Report, error) {
		return install.UninstallGemini(install.GeminiSettingsPath(scope, env.ProjectDir, env.Home), env.BackupDir(scope))
	},
	Inspect:    install.InspectGemini,
	Programs:   []string{"gemini"},
	ConfigDirs: func(env Env) []string { return userConfig(env, ".gemini") },
	// Gemini CLI 0.61.0: its agent codebase_investigator is on by default.
	Instructions: []string{"GEMINI.md"},
	Agents:       map[string]string{"explore": "codebase_investigator"},
	// Gemini CLI 0.61.0 names an MCP tool mcp_<server>_<tool> (its
	// generateValidName; seen in the declarations the fake model receives).
	ToolPrefix: "mcp_atreides_",
	Compact:    "/compress",
	Doctor:     geminiDoctor,
}

// geminiDoctor reports hooks switched off in any of Gemini's files: it
// merges hooksConfig.disabled across them, so a name disabled in one
// disables atreides's hooks in all of them.
func geminiDoctor(_ Env, found []install.Status) []Check {
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
