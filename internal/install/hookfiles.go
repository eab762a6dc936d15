package install

import (
	"path/filepath"
	"slices"
)

// HookEnv holds the environment values that move the hosts' settings.
type HookEnv struct {
	XDGConfigHome     string // $XDG_CONFIG_HOME (OpenCode's user directory)
	CodexHome         string // $CODEX_HOME
	OpenCodeConfig    string // $OPENCODE_CONFIG: an extra OpenCode config file
	OpenCodeConfigDir string // $OPENCODE_CONFIG_DIR: an extra OpenCode config directory
}

// openCodeConfigNames are the config files OpenCode reads in its config
// directories and at the project root; their "plugin" list can drop ours.
var openCodeConfigNames = []string{"opencode.json", "opencode.jsonc"}

// HookFiles lists every file whose contents decide whether an agent host
// runs atreides: the settings files install writes the hook registrations
// to (every scope of every host), .mcp.json, the files next to them that
// can switch hooks off (Codex's config.toml), OpenCode's config files and
// plugin directories. An entry ending in "/" is a directory: everything
// under it counts. Paths are absolute when projectDir and home are; a
// scope whose base is "" is left out. The guard asks before an agent
// writes any of them (internal/guard/selfguard.go).
func HookFiles(projectDir, home string, env HookEnv) []string {
	var out []string
	add := func(base string, paths ...string) {
		if base == "" {
			return
		}
		for _, p := range paths {
			if p != "" && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	add(projectDir,
		ClaudeSettingsPath(ScopeProject, projectDir, home),
		ClaudeSettingsPath(ScopeLocal, projectDir, home),
		ClaudeMCPPath(projectDir),
		GeminiSettingsPath(ScopeProject, projectDir, home),
	)
	add(home,
		ClaudeSettingsPath(ScopeUser, projectDir, home),
		GeminiSettingsPath(ScopeUser, projectDir, home),
	)
	codex := func(hooks string) {
		add(hooks, hooks, filepath.Join(filepath.Dir(hooks), "config.toml"))
	}
	if projectDir != "" {
		codex(CodexHooksPath(ScopeProject, projectDir, ""))
	}
	if home != "" || env.CodexHome != "" {
		codex(CodexHooksPath(ScopeUser, projectDir, CodexHome(env.CodexHome, home)))
	}
	if home != "" {
		codex(CodexHooksPath(ScopeUser, projectDir, CodexHome("", home)))
	}
	openCode := func(dir string) {
		if dir == "" {
			return
		}
		plugin := filepath.Dir(OpenCodePluginPath(dir))
		add(dir, plugin+"/", plugin+"s/")
		for _, n := range openCodeConfigNames {
			add(dir, filepath.Join(dir, n))
		}
	}
	if projectDir != "" {
		openCode(OpenCodeConfigDir(ScopeProject, projectDir, ""))
		for _, n := range openCodeConfigNames {
			add(projectDir, filepath.Join(projectDir, n))
		}
	}
	if home != "" || filepath.IsAbs(env.XDGConfigHome) {
		openCode(OpenCodeConfigDir(ScopeUser, projectDir, OpenCodeConfigHome(env.XDGConfigHome, home)))
	}
	if filepath.IsAbs(env.OpenCodeConfigDir) {
		openCode(env.OpenCodeConfigDir)
	}
	if filepath.IsAbs(env.OpenCodeConfig) {
		add(env.OpenCodeConfig, env.OpenCodeConfig)
	}
	return out
}
