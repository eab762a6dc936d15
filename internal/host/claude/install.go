package claude

import (
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/install"
)

// SettingsPath returns the Claude Code settings file of a scope. It
// returns "" for an unknown scope.
func SettingsPath(scope install.Scope, projectDir, home string) string {
	switch scope {
	case install.ScopeProject:
		return filepath.Join(projectDir, ".claude", "settings.json")
	case install.ScopeLocal:
		return filepath.Join(projectDir, ".claude", "settings.local.json")
	case install.ScopeUser:
		return filepath.Join(home, ".claude", "settings.json")
	}
	return ""
}

// judgedMatcher limits PreToolUse and PermissionRequest to the
// Claude Code tools atreides' guard understands (claude.JudgedTools) and
// MCP tools, so a tool atreides has no opinion on does not cost a process
// start. The list is built here rather than in a package variable, whose
// init every hook process would run.
//
// The matcher is anchored (install.ToolMatcher) because Claude Code treats
// a matcher with any character outside [A-Za-z0-9_ ,|-] as an unanchored
// JavaScript regex: without ^…$ "Edit" would also match "NotebookEditFoo",
// "Read" any "…Read…" MCP tool, and so on.
func judgedMatcher() string {
	return install.ToolMatcher(JudgedTools(), "mcp__")
}

// DefaultEvents are the events atreides registers for, in the order
// it writes them. Notification is left out on purpose: it is observe-only
// (no decision can be returned), fires on idle and permission prompts
// where atreides has nothing to add, and cannot be triggered in `claude -p`,
// so it could not be tested end to end. It can still be asked for.
var DefaultEvents = []string{
	"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
	"PostToolUse", "PostToolUseFailure", "Stop", "SubagentStart",
	"SubagentStop", "PreCompact", "PostCompact", "SessionEnd",
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

// Command is the command string registered for bin with a timeout.
func Command(bin string, timeoutSeconds int) string {
	return spec.Command(bin, time.Duration(timeoutSeconds)*time.Second)
}

// spec is Claude Code for the shared install machinery. Notification
// can be asked for (see DefaultEvents); SessionStart and the compaction
// events get no matcher, so that they fire for every source and trigger.
var spec = &install.HookSpec{
	Host: Host, Name: "Claude Code", ConfigDir: ".claude", Events: DefaultEvents, Optional: optionalEvents,
	JudgedEvents: []string{"PreToolUse", "PermissionRequest"}, AllToolEvents: []string{"PostToolUse", "PostToolUseFailure"}, Judged: judgedMatcher,
}

// Install registers `<bin> hook claude` in a Claude Code settings
// file, keeping everything of the user's in place and in order. Running it
// twice changes nothing; running it with another binary path updates our
// handlers in place.
func Install(opts InstallOptions) (install.Report, error) {
	want, err := wantGroups(opts)
	if err != nil {
		return install.Report{Host: spec.Host, Path: opts.SettingsPath}, err
	}
	return spec.Install(opts.SettingsPath, opts.BinaryPath, opts.BackupDir, want)
}

func wantGroups(opts InstallOptions) ([]install.WantGroup, error) {
	return spec.WantGroups(install.Want{
		Kind: "settings", Path: opts.SettingsPath, Bin: opts.BinaryPath,
		Timeout: opts.TimeoutSeconds, DefaultTimeout: install.DefaultTimeoutSeconds, Events: opts.Events,
		Handler: func(_ string, timeout int) *install.Node {
			return install.CommandHandler(Command(opts.BinaryPath, timeout), timeout)
		},
	})
}

// Uninstall removes exactly the handlers of ours from a Claude Code
// settings file, then the groups, event lists and "hooks" object that their
// removal left empty; a file still exactly as install left it gets its
// previous content back byte for byte (see internal/install/backup.go). A missing file, or
// one without our handlers, is not written.
func Uninstall(path, backupDir string) (install.Report, error) {
	return spec.Uninstall(path, backupDir)
}

// Inspect reports what atreides has installed in a Claude Code
// settings file, for doctor. A file that does not parse or has the wrong
// shape is a finding (install.Status.Problem), not an error; the error is for
// failures to inspect at all (e.g. permission denied).
//
// install.Status.Disabled is set when the file sets disableAllHooks:
// Claude Code then runs no hook of the user's, project's or local
// settings, whichever file says it (managed hooks excepted) [docs].
func Inspect(path string) (install.Status, error) {
	st, doc, err := spec.Inspect(path)
	if err != nil || doc == nil {
		return st, err
	}
	if off, ok := doc.Get("disableAllHooks").Bool(); ok && off {
		st.Disabled = "disableAllHooks is true: Claude Code runs no hooks from any settings file, atreides's included (remove the key, or set it to false)"
	}
	return st, nil
}

// mcpPath is the project's .mcp.json, which Claude Code reads for
// project MCP servers.
//
// Verified with Claude Code 2.1.330 against the fake model server (see
// test/e2e/governance_test.go): a -p run starts the servers of .mcp.json
// with no approval setting (no enabledMcpjsonServers or
// enableAllProjectMcpServers needed; the init event lists the server with
// source "project"), and honours disabledMcpjsonServers. It does not read
// mcpServers from .claude/settings.json or settings.local.json; --mcp-config
// works but is per run. The tools are deferred (named in a system reminder,
// loaded through ToolSearch) but callable. Calling them still needs
// permission, and an allow rule for mcp__atreides in the committed
// .claude/settings.json is ignored (settings.local.json and the user's
// settings are honoured); atreides's PreToolUse hook therefore allows its
// own tools when governance is on (internal/governance). Interactive
// sessions ask once to approve a project server [docs].
func mcpPath(projectDir string) string { return filepath.Join(projectDir, ".mcp.json") }

// InstallMCP registers `<bin> mcp` as the "atreides" server in a
// .mcp.json, keeping every other server and key as it was. It registers
// nothing when atreides-mcp is missing next to bin, and says so: a server
// that cannot start is worse than none.
func InstallMCP(path, bin, backupDir string) (install.Report, error) {
	r, err := install.MCPFile{Host: Host, Path: path, BackupDir: backupDir}.Install(bin)
	if err == nil && (r.Action == install.ActionInstalled || r.Action == install.ActionUpdated) {
		r.Notes = append(r.Notes, "interactive Claude Code sessions ask once to approve the project's MCP server \"atreides\"")
	}
	return r, err
}

// UninstallMCP removes the "atreides" server if atreides wrote it,
// and the mcpServers object if that leaves it empty.
func UninstallMCP(path, backupDir string) (install.Report, error) {
	return install.MCPFile{Host: Host, Path: path, BackupDir: backupDir}.Uninstall()
}

// InspectMCP reports whether the project's .mcp.json registers our
// server and whether the program it names (and atreides-mcp beside it) can
// run.
func InspectMCP(path string) (registered bool, problem string, err error) {
	return install.MCPFile{Host: Host, Path: path}.Inspect()
}
