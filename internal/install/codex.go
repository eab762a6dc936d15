package install

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Codex CLI (0.169.0) reads hooks from hooks.json next to each config
// layer, in Claude Code's event → matcher group → handler shape with the
// timeout in seconds. Two trust gates decide whether they run, and atreides
// deliberately leaves both to the user (they are security decisions; in
// config.toml atreides writes only its MCP server, see InstallCodexMCP):
//
//   - every non-managed hook must be trusted by its hash, recorded when the
//     user reviews it under /hooks in an interactive session; `codex exec`
//     silently skips an untrusted hook unless the run passes
//     --dangerously-bypass-hook-trust;
//   - <project>/.codex/hooks.json loads only in a trusted project:
//     [projects."<abs path>"] trust_level = "trusted" in
//     ~/.codex/config.toml.
//
// Install therefore says what is left to do in Report.Notes.

// CodexHome is the directory Codex keeps its user configuration in:
// $CODEX_HOME when set (pass its value as env), else ~/.codex.
func CodexHome(env, home string) string {
	if env != "" {
		return env
	}
	return filepath.Join(home, ".codex")
}

// CodexHooksPath returns the Codex hooks file of a scope: ScopeUser is
// <codexHome>/hooks.json (see CodexHome), ScopeProject
// <project>/.codex/hooks.json. Codex has no local scope; it returns "" for
// it and for an unknown scope.
func CodexHooksPath(scope Scope, projectDir, codexHome string) string {
	switch scope {
	case ScopeProject:
		return filepath.Join(projectDir, ".codex", "hooks.json")
	case ScopeUser:
		return filepath.Join(codexHome, "hooks.json")
	}
	return ""
}

// CodexJudgedTools are the Codex tool names the codex adapter judges
// (internal/host/codex/tools.go): its shell tools, which Codex reports to
// hooks as "Bash", and apply_patch. MCP tools ("mcp__<server>__<tool>")
// are matched by prefix.
var CodexJudgedTools = []string{"Bash", "apply_patch"}

// codexJudgedMatcher is anchored because Codex tests a matcher with any
// character outside plain names as an unanchored (Rust) regex; "*" alone
// means all.
func codexJudgedMatcher() string {
	return "^(" + strings.Join(CodexJudgedTools, "|") + ")$|^mcp__"
}

// DefaultCodexEvents are the events atreides registers for with Codex, in
// the order it writes them: every event the codex adapter handles.
// StopFailure and Interrupt are left out: there is nothing to decide.
var DefaultCodexEvents = []string{
	"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
	"PostToolUse", "Stop", "SubagentStart", "SubagentStop", "PreCompact",
	"PostCompact", "SessionEnd",
}

// CodexSessionEndTimeoutSeconds is the cap Codex puts on SessionEnd hooks
// (it clamps a longer timeout and prints a warning), so it is written as is.
const CodexSessionEndTimeoutSeconds = 3

// codexMatcher is the matcher written per event. PostToolUse matches every
// tool ("*"): history and error recognition need every call.
func codexMatcher(event string) (string, bool) {
	switch event {
	case "PreToolUse", "PermissionRequest":
		return codexJudgedMatcher(), true
	case "PostToolUse":
		return "*", true
	}
	return "", slices.Contains(DefaultCodexEvents, event)
}

// CodexOptions configures InstallCodex.
type CodexOptions struct {
	HooksPath      string   // see CodexHooksPath
	BinaryPath     string   // PortableBinary, or the absolute path of the atreides binary
	TimeoutSeconds int      // 0 means DefaultTimeoutSeconds; SessionEnd gets at most 3
	Events         []string // nil means DefaultCodexEvents
	// Scope is which file HooksPath is; it only chooses the notes. For
	// ScopeProject, ProjectDir names the project to trust.
	Scope      Scope
	ProjectDir string
	BackupDir  string // see BackupDir; "" keeps no backups
}

// codexSpec is Codex for the shared install machinery.
var codexSpec = &HookSpec{Host: "codex", Name: "Codex", ConfigDir: ".codex", Events: DefaultCodexEvents}

// CodexCommand is the command string registered for bin with a timeout.
func CodexCommand(bin string, timeoutSeconds int) string {
	return codexSpec.Command(bin, time.Duration(timeoutSeconds)*time.Second)
}

// InstallCodex registers `<bin> hook codex` in a Codex hooks.json, with the
// same guarantees as claude.Install. It never writes trust: the report's
// Notes say how to trust the hooks (and the project).
func InstallCodex(opts CodexOptions) (Report, error) {
	want, err := codexWant(opts)
	if err != nil {
		return Report{Host: codexSpec.Host, Path: opts.HooksPath}, err
	}
	r, err := codexSpec.Install(opts.HooksPath, opts.BinaryPath, opts.BackupDir, want)
	if err != nil {
		return r, err
	}
	r.Notes = CodexTrustNotes(opts.Scope, opts.ProjectDir)
	return r, nil
}

// CodexTrustNotes says what the user must do before Codex runs hooks from
// a file of the given scope.
func CodexTrustNotes(scope Scope, projectDir string) []string {
	notes := []string{
		"Codex runs a hook only after you trust it: start `codex` interactively and trust atreides's hooks under /hooks (trust is tied to each hook's exact definition, so trust them again after installing with another binary path or timeout)",
		"`codex exec` silently skips untrusted hooks; pass --dangerously-bypass-hook-trust to run them for one invocation",
	}
	if scope == ScopeProject {
		p := projectDir
		if p == "" {
			p = "<project>"
		}
		notes = append(notes, fmt.Sprintf("Codex loads .codex/hooks.json and .codex/config.toml (atreides's MCP server) only in a trusted project: trust it when Codex asks, or add [projects.%q] trust_level = \"trusted\" to ~/.codex/config.toml (atreides never writes trust settings)", p))
	}
	return notes
}

func codexWant(opts CodexOptions) ([]WantGroup, error) {
	bin := opts.BinaryPath
	timeout, events, err := CheckWant("hooks", opts.HooksPath, bin, opts.TimeoutSeconds, DefaultTimeoutSeconds, opts.Events, DefaultCodexEvents)
	if err != nil {
		return nil, err
	}
	var want []WantGroup
	seen := map[string]bool{}
	for _, ev := range events {
		m, ok := codexMatcher(ev)
		if !ok {
			return nil, fmt.Errorf("install: atreides does not handle the Codex event %q (supported: %s)", ev, strings.Join(DefaultCodexEvents, ", "))
		}
		if seen[ev] {
			continue
		}
		seen[ev] = true
		t := timeout
		if ev == "SessionEnd" {
			t = min(t, CodexSessionEndTimeoutSeconds)
		}
		want = append(want, WantGroup{Event: ev, Matcher: m, Handler: NewObject(
			Member{Key: "type", Value: NewString("command")},
			Member{Key: "command", Value: NewString(CodexCommand(bin, t))},
			Member{Key: "timeout", Value: NewInt(t)},
		)})
	}
	return want, nil
}

// UninstallCodex removes exactly the handlers of ours from a Codex
// hooks.json (see claude.Uninstall).
func UninstallCodex(path, backupDir string) (Report, error) {
	return codexSpec.Uninstall(path, backupDir)
}

// InspectCodex reports what atreides has installed in a Codex hooks.json,
// for doctor (see claude.Inspect). Whether Codex trusts the hooks is
// recorded by Codex itself and not inspected here.
func InspectCodex(path string) (Status, error) {
	st, _, err := codexSpec.Inspect(path)
	return st, err
}

// CodexConfigPath returns the config.toml of a scope, beside its hooks.json
// (see CodexHooksPath).
func CodexConfigPath(scope Scope, projectDir, codexHome string) string {
	if p := CodexHooksPath(scope, projectDir, codexHome); p != "" {
		return filepath.Join(filepath.Dir(p), "config.toml")
	}
	return ""
}

// InstallCodexMCP registers `<bin> mcp --host codex` as the server
// [mcp_servers.atreides] in a Codex config.toml (see codextoml.go for how
// the file is edited). Codex 0.169.0 starts it and shows its tools to the
// model as the namespace mcp__atreides; the server's environment does not
// name Codex, hence --host. A project's .codex/config.toml is read only
// in a trusted project, like its hooks (both seen with the real CLI in
// test/e2e/mcp_hosts_test.go). Nothing is registered when
// atreides-mcp is missing next to bin.
func InstallCodexMCP(path, bin, backupDir string) (Report, error) {
	r := Report{Host: codexSpec.Host, Path: path, what: "atreides MCP server"}
	if err := checkBinaryPath(bin); err != nil {
		return r, err
	}
	if p := MCPBinaryProblem(bin); p != "" {
		r.Action = ActionUnchanged
		r.Notes = append(r.Notes, "MCP tools not registered: "+p)
		return r, nil
	}
	f, err := readSettings(path, backupDir)
	if err != nil {
		return r, err
	}
	c, err := parseCodexConfig(path, f.data)
	if err != nil {
		return r, err
	}
	out, action, err := c.install(bin)
	if err != nil || action == ActionUnchanged {
		r.Action = action
		return r, err
	}
	r.Created, r.Action = !f.exists, action
	item := []string{"mcp_servers." + MCPServerName}
	var first *undo
	if action == ActionInstalled {
		r.Added = item
		first = &undo{Path: f.target, Existed: f.exists, Mode: f.mode, Dirs: missingDirs(filepath.Dir(f.target))}
	} else {
		r.Updated = item
	}
	r.Backup, err = f.bk.saveInstall(first, f.exists, f.data, out, f.write)
	return r, err
}

// UninstallCodexMCP removes the server if atreides wrote it: a file still
// as install left it gets its bytes from before back (or goes, with the
// directories install created, when install created it); otherwise only
// the lines defining the server are cut.
func UninstallCodexMCP(path, backupDir string) (Report, error) {
	r := Report{Host: codexSpec.Host, Path: path, Action: ActionNothingToDo, what: "atreides MCP server"}
	f, err := readSettings(path, backupDir)
	if err != nil || !f.exists {
		return r, err
	}
	c, err := parseCodexConfig(path, f.data)
	if err != nil {
		return r, err
	}
	out, err := c.uninstall()
	if err != nil || out == nil {
		return r, err
	}
	r.Action, r.Removed = ActionRemoved, []string{"mcp_servers." + MCPServerName}
	r.Backup, err = f.saveUninstallOf(func() ([]byte, error) { return out, nil })
	return r, err
}

// InspectCodexMCP reports whether a Codex config.toml registers our server
// and whether it can start.
func InspectCodexMCP(path string) (registered bool, problem string, err error) {
	f, err := readSettings(path, "")
	if err != nil {
		return false, err.Error(), nil
	}
	c, err := parseCodexConfig(path, f.data)
	if err != nil {
		return false, err.Error(), nil
	}
	if !c.ours {
		return false, "", nil
	}
	bin, _ := c.server["command"].(string)
	return true, mcpServerProblem(bin), nil
}
