package hosts

import (
	"path/filepath"
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
	Install:      installGemini,
	Uninstall:    uninstallGemini,
	Inspect:      install.InspectGemini,
	Programs:     []string{"gemini"},
	ConfigDirs:   func(env Env) []string { return userConfig(env, ".gemini") },
	Instructions: []string{"GEMINI.md"},
	// Gemini CLI 0.61.0 loads local agents from .gemini/agents/*.md and
	// ~/.gemini/agents/*.md (experimental.enableAgents, on by default) and
	// starts them with invoke_agent. A project's agents load only in a
	// trusted folder and once the user acknowledged each file's content in
	// the interactive CLI (~/.gemini/acknowledgments/agents.json, which
	// atreides never writes); the user's load as they are. It has no
	// subagent-start event to inject skills on: they go into the prompt.
	Agents: geminiAgents,

	Compact: "/compress",
	Doctor:  geminiDoctor,
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

func installGemini(env Env, o Options) (install.Report, error) {
	rep, err := install.InstallGemini(install.GeminiOptions{
		SettingsPath: install.GeminiSettingsPath(o.Scope, env.ProjectDir, env.Home), BinaryPath: o.Binary,
		TimeoutMillis: o.TimeoutSeconds * 1000, Scope: o.Scope, BackupDir: env.BackupDir(o.Scope),
	})
	if err != nil {
		return rep, err
	}
	if err := withAgents(env, &rep, "gemini", geminiAgents, o.Scope, o.Roster, true); err != nil {
		return rep, err
	}
	if o.Scope == install.ScopeProject && len(o.Roster.Subagents()) > 0 {
		rep.Notes = append(rep.Notes, "Gemini CLI loads a project's agents only once you accept them in an interactive session (it asks when it finds new or changed agent files; headless runs skip them until then); 'atreides install gemini --user' installs them for you alone, without that step")
	}
	return rep, nil
}

func uninstallGemini(env Env, scope install.Scope) (install.Report, error) {
	// The agent files first: the settings' uninstall removes the
	// directories install created (.claude) only once they are empty.
	var agentsRep install.Report
	if err := withAgents(env, &agentsRep, "gemini", geminiAgents, scope, nil, false); err != nil {
		return agentsRep, err
	}
	rep, err := install.UninstallGemini(install.GeminiSettingsPath(scope, env.ProjectDir, env.Home), env.BackupDir(scope))
	rep.Notes = append(rep.Notes, agentsRep.Notes...)
	rep.Warnings = append(rep.Warnings, agentsRep.Warnings...)
	return rep, err
}

// geminiAgents is how gemini takes the roster (see the host entry).
var geminiAgents = AgentFacts{
	Call: `the invoke_agent tool with agent_name "%[1]s"`,
	Dir: func(env Env, scope install.Scope) string {
		if scope == install.ScopeUser {
			return filepath.Join(env.Home, ".gemini", "agents")
		}
		return filepath.Join(env.ProjectDir, ".gemini", "agents")
	},
	Form: install.GeminiAgentForm, InlineSkills: true,
	SkillDirs: []string{".gemini/skills"},
}
