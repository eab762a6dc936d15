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
	// The whole hook directories: any executable there runs on every
	// event, and one that cancels or rewrites calls would act beside
	// atreides's.
	HookFiles: func(env host.Env) []string {
		var out []string
		if env.ProjectDir != "" {
			out = append(out, dirOf(env, install.ScopeProject)+"/")
		}
		if env.Home != "" || env.Getenv("CLINE_DIR") != "" {
			out = append(out, dirOf(env, install.ScopeUser)+"/")
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
	// No agent files: spawn_agent takes its system prompt in the call,
	// and 3.0.65 loads no agent definitions from a folder. Its workflows
	// (.clinerules/workflows) are slash commands of the interactive
	// extension; the headless CLI sends a prompt "/name" as it is.
	Agents:   host.AgentFacts{},
	Commands: host.CommandFacts{},

	Start: "write the hook files in .clinerules/hooks/",
	Writes: `.clinerules/hooks/<Event> (--user: ~/.cline/hooks/, or
$CLINE_DIR/hooks/), one executable per event`,

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

func installCline(env host.Env, o host.Options) (install.Report, error) {
	return Install(InstallOptions{Dir: dirOf(env, o.Scope), BinaryPath: o.Binary, Timeout: o.TimeoutSeconds, BackupDir: env.BackupDir(o.Scope)})
}

func uninstallCline(env host.Env, scope install.Scope) (install.Report, error) {
	return Uninstall(dirOf(env, scope), env.BackupDir(scope))
}

// clineDoctor says what doctor must know beyond the files: a foreign hook
// file in an event's place, and that atreides's MCP tools are not
// registered for Cline.
func clineDoctor(env host.Env, found []install.Status) []host.Check {
	var out []host.Check
	for _, st := range found {
		for _, n := range st.Notes {
			out = append(out, host.Check{Name: "cline hooks", Status: host.Problem, Detail: n + ": atreides does not see that event there"})
		}
	}
	out = append(out, host.Check{Name: "cline MCP tools", Status: host.Note,
		Detail: "atreides registers no MCP server for Cline: its agent has no intent or todo tools of atreides's"})
	return out
}
