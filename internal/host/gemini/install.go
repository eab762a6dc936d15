package gemini

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/install"
)

// Gemini CLI (0.61.0) keeps hooks in settings.json under "hooks", in the
// same event → matcher group → handler shape as Claude Code, with three
// differences that matter here: the timeout is in milliseconds, a handler
// may carry a "name" (which `hooksConfig.disabled` refers to, and which
// together with the command deduplicates the same hook found in the project
// and the user file), and settings.json may hold comments (Gemini strips
// them before parsing).

// HookName is the "name" written on every handler of ours. Gemini
// shows it in /hooks and matches it against hooksConfig.disabled; a stable
// name lets a user disable atreides without knowing the binary path.
const HookName = "atreides"

// SettingsPath returns the Gemini CLI settings file of a scope:
// install.ScopeProject is <project>/.gemini/settings.json, install.ScopeUser
// ~/.gemini/settings.json. Gemini has no local scope; it returns "" for it
// and for an unknown scope.
func SettingsPath(scope install.Scope, projectDir, home string) string {
	switch scope {
	case install.ScopeProject:
		return filepath.Join(projectDir, ".gemini", "settings.json")
	case install.ScopeUser:
		return filepath.Join(home, ".gemini", "settings.json")
	}
	return ""
}

// judgedMatcher limits BeforeTool to the Gemini CLI built-in tools
// the gemini adapter judges (gemini.JudgedTools) and MCP tools. The list is
// built here rather than in a package variable, whose init every hook
// process would run.
//
// Gemini tests a matcher as an unanchored JavaScript regex (only "" and "*"
// mean all), so the names are anchored: without ^…$ "read_file" would also
// match "mcp_x_read_file_fast". Gemini 0.61.0 names MCP tools
// "mcp_<server>_<tool>" (one underscore, unlike Claude's mcp__).
func judgedMatcher() string {
	return install.ToolMatcher(JudgedTools(), "mcp_")
}

// DefaultEvents are the events atreides registers for with Gemini CLI,
// in the order it writes them. PreCompress is registered for the "manual"
// trigger only (fixedMatcher): it is where atreides takes its snapshot
// before /compress, which the next prompt gets back. Left out on purpose:
//   - Notification: observe-only, and fires on permission prompts where
//     atreides has nothing to add. It can still be asked for.
//   - BeforeModel, AfterModel, BeforeToolSelection: no atreides meaning;
//     the adapter decodes them as unknown and AfterModel fires per chunk.
var DefaultEvents = []string{
	"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd",
}

// optionalEvents are handled by the adapter but not registered by
// default (see DefaultEvents).
var optionalEvents = []string{"Notification"}

// fixedMatcher limits PreCompress to /compress. Gemini CLI 0.61.0
// (ChatCompressionService.compress) fires PreCompress with trigger "auto"
// before every model turn, before it even checks whether the history is
// over its threshold, and fires nothing after a compression: an "auto"
// PreCompress cannot be told from an ordinary turn, so hooking it would
// cost a process start per turn and tell atreides nothing. "manual" is
// /compress, which always compresses (force). Gemini compares a
// PreCompress matcher with the trigger exactly (matchesTrigger).
func fixedMatcher(event string) string {
	if event == "PreCompress" {
		return "manual"
	}
	return ""
}

// defaultTimeoutMillis is the per-handler timeout written when none is
// given: the same ten seconds as for Claude Code, in Gemini's milliseconds
// (its own default is 60000).
const defaultTimeoutMillis = install.DefaultTimeoutSeconds * 1000

// InstallOptions configures Install.
type InstallOptions struct {
	SettingsPath  string        // see SettingsPath
	BinaryPath    string        // install.PortableBinary, or the absolute path of the atreides binary
	TimeoutMillis int           // 0 means defaultTimeoutMillis
	Events        []string      // nil means DefaultEvents
	Scope         install.Scope // which file SettingsPath is; only chooses the notes
	BackupDir     string        // see install.BackupDir; "" keeps no backups
}

// spec is Gemini CLI for the shared install machinery. "enabled",
// "disabled" and "notifications" under "hooks" are settings Gemini skips
// when it reads events (HOOKS_CONFIG_FIELDS in its bundle), and an event
// whose value is not a list is skipped with a warning, not fatal.
var spec = &install.HookSpec{
	Host: Host, Name: "Gemini CLI", ConfigDir: ".gemini", Events: DefaultEvents,
	NonEvents: []string{"enabled", "disabled", "notifications"}, LenientEvents: true, JSONC: true,
	Optional: optionalEvents, JudgedEvents: []string{"BeforeTool"}, AllToolEvents: []string{"AfterTool"}, Judged: judgedMatcher,
	Fixed:     fixedMatcher,
	ParseNote: "Gemini CLI reports an error for a settings file it cannot parse; atreides left it untouched: fix the file and run again",
}

// Command is the command string registered for bin with a timeout.
func Command(bin string, timeoutMillis int) string {
	return spec.Command(bin, time.Duration(timeoutMillis)*time.Millisecond)
}

// Install registers `<bin> hook gemini` in a Gemini CLI settings
// file, with the same guarantees as claude.Install: the user's settings and
// hooks stay in place and in order, a second run changes nothing, and
// another binary path updates our handlers in place.
func Install(opts InstallOptions) (install.Report, error) {
	r := install.Report{Host: spec.Host, Path: opts.SettingsPath}
	want, err := wantGroups(opts)
	if err != nil {
		return r, err
	}
	r, err = spec.Install(opts.SettingsPath, opts.BinaryPath, opts.BackupDir, want)
	if err != nil {
		return r, err
	}
	if opts.Scope == install.ScopeProject && r.Action != install.ActionUnchanged {
		r.Notes = append(r.Notes, "Gemini CLI runs project hooks only in a trusted folder, and warns about them once when they are new or changed")
	}
	return r, nil
}

func wantGroups(opts InstallOptions) ([]install.WantGroup, error) {
	return spec.WantGroups(install.Want{
		Kind: "settings", Path: opts.SettingsPath, Bin: opts.BinaryPath,
		Timeout: opts.TimeoutMillis, DefaultTimeout: defaultTimeoutMillis, Events: opts.Events,
		Handler: func(_ string, timeout int) *install.Node {
			return install.CommandHandler(Command(opts.BinaryPath, timeout), timeout, install.Member{Key: "name", Value: install.NewString(HookName)})
		},
	})
}

// Uninstall removes exactly the handlers of ours from a Gemini CLI
// settings file (see claude.Uninstall).
func Uninstall(path, backupDir string) (install.Report, error) {
	return spec.Uninstall(path, backupDir)
}

// InstallMCP registers `<bin> mcp --host gemini` as the "atreides"
// MCP server in a Gemini CLI settings file (mcpServers, next to our hooks),
// keeping every other server as it was. Gemini CLI 0.61.0 starts it in a
// trusted folder, names its tools mcp_atreides_<tool>, and sets
// GEMINI_CLI=1 but no session id in its environment (observed; the tools
// are asserted in test/e2e/mcp_hosts_test.go). Nothing is registered when
// atreides-mcp is missing next to bin.
func InstallMCP(path, bin, backupDir string) (install.Report, error) {
	return mcpFile(path, backupDir).Install(bin)
}

// UninstallMCP removes the "atreides" server if atreides wrote it.
func UninstallMCP(path, backupDir string) (install.Report, error) {
	return mcpFile(path, backupDir).Uninstall()
}

// InspectMCP reports whether a Gemini settings file registers our
// server and whether it can start.
func InspectMCP(path string) (registered bool, problem string, err error) {
	return mcpFile(path, "").Inspect()
}

func mcpFile(path, backupDir string) install.MCPFile {
	return install.MCPFile{Host: Host, Path: path, BackupDir: backupDir, Spec: spec, HostArg: true}
}

// Inspect reports what atreides has installed in a Gemini CLI
// settings file, for doctor (see claude.Inspect); comments are read past,
// as Gemini does. install.Status.Disabled is set when hooksConfig in this file
// switches hooks off or lists our name as disabled; Gemini merges
// hooksConfig.disabled across the user and project files, so a name
// disabled in one file disables our hooks in both.
func Inspect(path string) (install.Status, error) {
	st, doc, err := spec.Inspect(path)
	if err != nil {
		return st, err
	}
	if doc != nil {
		st.Disabled, st.Notes = disabled(doc, st.Notes)
	}
	return st, nil
}

// disabled reports whether doc switches our hooks off.
func disabled(doc *install.Node, notes []string) (string, []string) {
	cfg := doc.Get("hooksConfig")
	if on, ok := cfg.Get("enabled").Bool(); ok && !on {
		return "hooksConfig.enabled is false: Gemini CLI runs no hooks at all", notes
	}
	for _, n := range cfg.Get("disabled").Elems() {
		if s, _ := n.Str(); s == HookName {
			return fmt.Sprintf("hooksConfig.disabled lists %q: Gemini CLI does not run atreides's hooks (remove it from the list, or run /hooks enable %s)", HookName, HookName), notes
		}
	}
	for _, n := range doc.Get("hooks").Get("disabled").Elems() {
		if s, _ := n.Str(); s == HookName {
			notes = append(notes, fmt.Sprintf("hooks.disabled lists %q: Gemini CLI 0.61.0 ignores that key (it reads hooksConfig.disabled), but other versions may disable atreides's hooks by it", HookName))
		}
	}
	return "", notes
}
