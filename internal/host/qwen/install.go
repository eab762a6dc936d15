package qwen

import (
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/install"
)

// Qwen Code (0.24.4) keeps hooks in settings.json under "hooks", in Claude
// Code's event → matcher group → handler shape and with Claude's event
// names. The timeout is in seconds (a value of 1000 or more is read as
// milliseconds, with a warning: the unit of older versions). settings.json
// may hold comments, which Qwen strips before parsing; a project file that
// still does not parse is copied aside and reset to {} by Qwen.

// SettingsPath returns the Qwen Code settings file of a scope:
// install.ScopeProject is <project>/.qwen/settings.json, install.ScopeUser
// ~/.qwen/settings.json. Qwen has no local scope; it returns "" for it and
// for an unknown scope.
func SettingsPath(scope install.Scope, projectDir, home string) string {
	switch scope {
	case install.ScopeProject:
		return filepath.Join(projectDir, ".qwen", "settings.json")
	case install.ScopeUser:
		return filepath.Join(home, ".qwen", "settings.json")
	}
	return ""
}

// judgedMatcher limits PreToolUse to the Qwen Code tools atreides judges
// (JudgedTools) and MCP tools. Qwen tests a matcher as an unanchored
// JavaScript regex unless it equals the tool's name, so the list is
// anchored. The list is built here rather than in a package variable,
// whose init every hook process would run.
func judgedMatcher() string {
	return install.ToolMatcher(JudgedTools(), "mcp__")
}

// DefaultEvents are the events atreides registers for with Qwen Code, in
// the order it writes them. Left out on purpose:
//   - PermissionRequest: Qwen fires it only when it would show a
//     confirmation, which a headless run never does; PreToolUse judges
//     every call.
//   - Notification: observe-only, and atreides has nothing to add to
//     Qwen's notices (the capture run's was "authenticated").
//   - PostToolBatch, MessageDisplay, InstructionsLoaded, TodoCreated,
//     TodoCompleted, StopFailure, PermissionDenied, SessionDelete: no
//     atreides meaning (MessageDisplay fires per streamed chunk).
var DefaultEvents = []string{
	"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
	"Stop", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd",
}

// optionalEvents are handled by the adapter but not registered by
// default (see DefaultEvents).
var optionalEvents = []string{"Notification"}

// InstallOptions configures Install.
type InstallOptions struct {
	SettingsPath   string   // see SettingsPath
	BinaryPath     string   // install.PortableBinary, or the absolute path of the atreides binary
	TimeoutSeconds int      // 0 means install.DefaultTimeoutSeconds
	Events         []string // nil means DefaultEvents
	BackupDir      string   // see install.BackupDir; "" keeps no backups
}

// spec is Qwen Code for the shared install machinery. SessionStart and the
// compaction events get no matcher, so that they fire for every source and
// trigger.
var spec = &install.HookSpec{
	Host: Host, Name: "Qwen Code", ConfigDir: ".qwen", Events: DefaultEvents, Optional: optionalEvents, JSONC: true,
	JudgedEvents: []string{"PreToolUse"}, AllToolEvents: []string{"PostToolUse", "PostToolUseFailure"}, Judged: judgedMatcher,
	ParseNote: "Qwen Code resets a project settings file it cannot parse to {} (keeping a copy beside it) and refuses to start on a user file it cannot parse; atreides left it untouched: fix the file and run again",
}

// Command is the command string registered for bin with a timeout.
func Command(bin string, timeoutSeconds int) string {
	return spec.Command(bin, time.Duration(timeoutSeconds)*time.Second)
}

// Install registers `<bin> hook qwen` in a Qwen Code settings file,
// keeping the user's settings and hooks in place and in order. Running it
// twice changes nothing; running it with another binary path updates our
// handlers in place.
func Install(opts InstallOptions) (install.Report, error) {
	want, err := spec.WantGroups(install.Want{
		Kind: "settings", Path: opts.SettingsPath, Bin: opts.BinaryPath,
		Timeout: opts.TimeoutSeconds, DefaultTimeout: install.DefaultTimeoutSeconds, Events: opts.Events,
		Handler: func(_ string, timeout int) *install.Node {
			return install.CommandHandler(Command(opts.BinaryPath, timeout), timeout)
		},
	})
	if err != nil {
		return install.Report{Host: spec.Host, Path: opts.SettingsPath}, err
	}
	return spec.Install(opts.SettingsPath, opts.BinaryPath, opts.BackupDir, want)
}

// Uninstall removes exactly the handlers of ours from a Qwen Code settings
// file (see claude.Uninstall).
func Uninstall(path, backupDir string) (install.Report, error) {
	return spec.Uninstall(path, backupDir)
}

// Inspect reports what atreides has installed in a Qwen Code settings
// file, for doctor; comments are read past, as Qwen does.
// install.Status.Disabled is set when the file switches every hook off
// (disableAllHooks).
func Inspect(path string) (install.Status, error) {
	st, doc, err := spec.Inspect(path)
	if err != nil || doc == nil {
		return st, err
	}
	if off, ok := doc.Get("disableAllHooks").Bool(); ok && off {
		st.Disabled = "disableAllHooks is true: Qwen Code runs no hooks at all"
	}
	return st, nil
}

// InstallMCP registers `<bin> mcp --host qwen` as the "atreides" MCP server
// in a Qwen Code settings file (mcpServers, next to our hooks), keeping
// every other server as it was. Qwen Code 0.24.4 names its tools
// mcp__atreides__<tool>. Nothing is registered when atreides-mcp is
// missing next to bin.
func InstallMCP(path, bin, backupDir string) (install.Report, error) {
	return mcpFile(path, backupDir).Install(bin)
}

// UninstallMCP removes the "atreides" server if atreides wrote it.
func UninstallMCP(path, backupDir string) (install.Report, error) {
	return mcpFile(path, backupDir).Uninstall()
}

// InspectMCP reports whether a Qwen settings file registers our server and
// whether it can start.
func InspectMCP(path string) (registered bool, problem string, err error) {
	return mcpFile(path, "").Inspect()
}

func mcpFile(path, backupDir string) install.MCPFile {
	return install.MCPFile{Host: Host, Path: path, BackupDir: backupDir, Spec: spec, HostArg: true}
}
