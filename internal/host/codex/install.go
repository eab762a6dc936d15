package codex

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/install"
)

// Codex CLI (0.169.0, 0.171.0) reads hooks from hooks.json next to each config
// layer, in Claude Code's event → matcher group → handler shape with the
// timeout in seconds. Two trust gates decide whether they run, and atreides
// deliberately leaves both to the user (they are security decisions; in
// config.toml atreides writes only its MCP server, see InstallMCP):
//
//   - every non-managed hook must be trusted by its hash, recorded when the
//     user reviews it under /hooks in an interactive session; `codex exec`
//     silently skips an untrusted hook unless the run passes
//     --dangerously-bypass-hook-trust;
//   - <project>/.codex/hooks.json loads only in a trusted project:
//     [projects."<abs path>"] trust_level = "trusted" in
//     ~/.codex/config.toml.
//
// Install therefore says what is left to do in install.Report.Notes.

// Home is the directory Codex keeps its user configuration in:
// $CODEX_HOME when set (pass its value as env), else ~/.codex.
func Home(env, home string) string {
	if env != "" {
		return env
	}
	return filepath.Join(home, ".codex")
}

// HooksPath returns the Codex hooks file of a scope: install.ScopeUser is
// <codexHome>/hooks.json (see Home), install.ScopeProject
// <project>/.codex/hooks.json. Codex has no local scope; it returns "" for
// it and for an unknown scope.
func HooksPath(scope install.Scope, projectDir, codexHome string) string {
	switch scope {
	case install.ScopeProject:
		return filepath.Join(projectDir, ".codex", "hooks.json")
	case install.ScopeUser:
		return filepath.Join(codexHome, "hooks.json")
	}
	return ""
}

// judgedTools are the Codex tool names the codex adapter judges
// (internal/host/codex/tools.go): its shell tools, which Codex reports to
// hooks as "Bash", apply_patch, and spawn_agent (a delegation, hooked
// since 0.171.0 at least: the delegation limits and redirects judge it).
// MCP tools ("mcp__<server>__<tool>") are matched by prefix.
var judgedTools = []string{"Bash", "apply_patch", "spawn_agent"}

// judgedMatcher is anchored because Codex tests a matcher with any
// character outside plain names as an unanchored (Rust) regex; "*" alone
// means all.
func judgedMatcher() string {
	return install.ToolMatcher(judgedTools, "mcp__")
}

// DefaultEvents are the events atreides registers for with Codex, in
// the order it writes them: every event the codex adapter handles.
// StopFailure and Interrupt are left out: there is nothing to decide.
var DefaultEvents = []string{
	"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
	"PostToolUse", "Stop", "SubagentStart", "SubagentStop", "PreCompact",
	"PostCompact", "SessionEnd",
}

// sessionEndTimeoutSeconds is the cap Codex puts on SessionEnd hooks
// (it clamps a longer timeout and prints a warning), so it is written as is.
const sessionEndTimeoutSeconds = 3

// InstallOptions configures Install.
type InstallOptions struct {
	HooksPath      string   // see HooksPath
	BinaryPath     string   // install.PortableBinary, or the absolute path of the atreides binary
	TimeoutSeconds int      // 0 means install.DefaultTimeoutSeconds; SessionEnd gets at most 3
	Events         []string // nil means DefaultEvents
	// Scope is which file HooksPath is; it only chooses the notes. For
	// install.ScopeProject, ProjectDir names the project to trust.
	Scope      install.Scope
	ProjectDir string
	BackupDir  string // see install.BackupDir; "" keeps no backups
}

// spec is Codex for the shared install machinery.
var spec = &install.HookSpec{
	Host: Host, Name: "Codex", ConfigDir: ".codex", Events: DefaultEvents,
	JudgedEvents: []string{"PreToolUse", "PermissionRequest"}, AllToolEvents: []string{"PostToolUse"}, Judged: judgedMatcher,
}

// Command is the command string registered for bin with a timeout.
func Command(bin string, timeoutSeconds int) string {
	return spec.Command(bin, time.Duration(timeoutSeconds)*time.Second)
}

// Install registers `<bin> hook codex` in a Codex hooks.json, with the
// same guarantees as claude.Install. It never writes trust: the report's
// Notes say how to trust the hooks (and the project).
func Install(opts InstallOptions) (install.Report, error) {
	want, err := wantGroups(opts)
	if err != nil {
		return install.Report{Host: spec.Host, Path: opts.HooksPath}, err
	}
	r, err := spec.Install(opts.HooksPath, opts.BinaryPath, opts.BackupDir, want)
	if err != nil {
		return r, err
	}
	r.Notes = trustNotes(opts.Scope, opts.ProjectDir)
	return r, nil
}

// trustNotes says what the user must do before Codex runs hooks from
// a file of the given scope.
func trustNotes(scope install.Scope, projectDir string) []string {
	notes := []string{
		"Codex runs a hook only after you trust it: start `codex` interactively and trust atreides's hooks under /hooks (trust is tied to each hook's exact definition, so trust them again after installing with another binary path or timeout)",
		"`codex exec` silently skips untrusted hooks; pass --dangerously-bypass-hook-trust to run them for one invocation",
	}
	if scope == install.ScopeProject {
		p := projectDir
		if p == "" {
			p = "<project>"
		}
		notes = append(notes, fmt.Sprintf("Codex loads .codex/hooks.json and .codex/config.toml (atreides's MCP server) only in a trusted project: trust it when Codex asks, or add [projects.%q] trust_level = \"trusted\" to ~/.codex/config.toml (atreides never writes trust settings)", p))
	}
	return notes
}

func wantGroups(opts InstallOptions) ([]install.WantGroup, error) {
	return spec.WantGroups(install.Want{
		Kind: "hooks", Path: opts.HooksPath, Bin: opts.BinaryPath,
		Timeout: opts.TimeoutSeconds, DefaultTimeout: install.DefaultTimeoutSeconds, Events: opts.Events,
		Handler: func(ev string, timeout int) *install.Node {
			if ev == "SessionEnd" {
				timeout = min(timeout, sessionEndTimeoutSeconds)
			}
			return install.CommandHandler(Command(opts.BinaryPath, timeout), timeout)
		},
	})
}

// Uninstall removes exactly the handlers of ours from a Codex
// hooks.json (see claude.Uninstall).
func Uninstall(path, backupDir string) (install.Report, error) {
	return spec.Uninstall(path, backupDir)
}

// Inspect reports what atreides has installed in a Codex hooks.json,
// for doctor (see claude.Inspect). Whether Codex trusts the hooks is
// recorded by Codex itself and not inspected here.
func Inspect(path string) (install.Status, error) {
	st, _, err := spec.Inspect(path)
	return st, err
}

// configPath returns the config.toml of a scope, beside its hooks.json
// (see HooksPath).
func configPath(scope install.Scope, projectDir, codexHome string) string {
	if p := HooksPath(scope, projectDir, codexHome); p != "" {
		return filepath.Join(filepath.Dir(p), "config.toml")
	}
	return ""
}

// InstallMCP registers `<bin> mcp --host codex` as the server
// [mcp_servers.atreides] in a Codex config.toml (see config.go for how
// the file is edited). Codex (0.169.0, 0.171.0) starts it and shows its
// tools to the model as the namespace mcp__atreides; the server's
// environment does not name Codex, hence --host. A project's
// .codex/config.toml is read only in a trusted project, like its hooks
// (both seen with the real CLI in test/e2e/mcp_hosts_test.go). Nothing
// is registered when atreides-mcp is missing next to bin.
func InstallMCP(path, bin, backupDir string) (install.Report, error) {
	if err := install.CheckBinaryPath(bin); err != nil {
		return install.Report{Host: spec.Host, Path: path}, err
	}
	if p := install.MCPBinaryProblem(bin); p != "" {
		return install.Report{Host: spec.Host, Path: path, Action: install.ActionUnchanged, Notes: []string{"MCP tools not registered: " + p}}, nil
	}
	return mcpFile(path, backupDir).Install("mcp_servers."+install.MCPServerName, func(data []byte) ([]byte, install.Action, error) {
		c, err := parseConfig(path, data)
		if err != nil {
			return nil, "", err
		}
		return c.install(bin)
	})
}

// UninstallMCP removes the server if atreides wrote it: a file still
// as install left it gets its bytes from before back (or goes, with the
// directories install created, when install created it); otherwise only
// the lines defining the server are cut.
func UninstallMCP(path, backupDir string) (install.Report, error) {
	return mcpFile(path, backupDir).Uninstall("mcp_servers."+install.MCPServerName, func(data []byte) ([]byte, error) {
		c, err := parseConfig(path, data)
		if err != nil {
			return nil, err
		}
		return c.uninstall()
	})
}

// mcpFile is the config.toml at path, which install edits as text.
func mcpFile(path, backupDir string) install.TextFile {
	return install.TextFile{Host: spec.Host, Path: path, BackupDir: backupDir, What: "atreides MCP server"}
}

// InspectMCP reports whether a Codex config.toml registers our server
// and whether it can start.
func InspectMCP(path string) (registered bool, problem string, err error) {
	data, _, err := mcpFile(path, "").Read()
	if err != nil {
		return false, err.Error(), nil
	}
	c, err := parseConfig(path, data)
	if err != nil {
		return false, err.Error(), nil
	}
	if !c.ours {
		return false, "", nil
	}
	bin, _ := c.server["command"].(string)
	return true, install.MCPServerProblem(bin), nil
}
