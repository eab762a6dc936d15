package copilot

import (
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/install"
)

// Copilot CLI (1.0.102) loads every *.json of ~/.copilot/hooks/ ($COPILOT_HOME
// moves ~/.copilot) and of the repository's .github/hooks/. A file holds
// {"hooks": {"<event>": [...]}}; an entry is either a handler
// ({"type":"command","bash":...,"timeoutSec":...}, its own documented
// form) or Claude Code's matcher group ({"matcher":...,"hooks":[{"type":
// "command","command":...,"timeout":...}]}). atreides writes the second,
// which the shared install machinery edits (install, reinstall, uninstall
// back to the bytes before), into a file of its own, atreides.json; both
// forms were verified to run, with the timeout in seconds honoured. The
// groups carry no matcher: Copilot tests a matcher as a regex on its own
// tool name, and "" or "*" match no tool at all (verified), so every tool
// call comes to atreides.

// FileName is the hooks file install writes in each scope's directory.
const FileName = "atreides.json"

// HooksPath is the hooks file of a scope: the user's
// $COPILOT_HOME/hooks/atreides.json (COPILOT_HOME defaults to ~/.copilot),
// or the project's .github/hooks/atreides.json; "" for another scope.
func HooksPath(scope install.Scope, projectDir, home, copilotHome string) string {
	switch scope {
	case install.ScopeUser:
		return filepath.Join(UserDir(home, copilotHome), "hooks", FileName)
	case install.ScopeProject:
		return filepath.Join(projectDir, ".github", "hooks", FileName)
	}
	return ""
}

// UserDir is Copilot CLI's user directory: $COPILOT_HOME when it is
// absolute, else ~/.copilot.
func UserDir(home, copilotHome string) string {
	if filepath.IsAbs(copilotHome) {
		return copilotHome
	}
	return filepath.Join(home, ".copilot")
}

// DefaultEvents are the events atreides registers, in the order it writes
// them. Left out: preCompact, which can be asked for (optionalEvents);
// errorOccurred, notification, permissionRequest, userPromptTransformed and
// preMcpToolCall, which have no atreides meaning.
var DefaultEvents = []string{
	SessionStart, UserPrompt, PreToolUse, PostToolUse, PostToolUseFailure, AgentStop, SubagentStart, SubagentStop, SessionEnd,
}

// optionalEvents are handled but not registered by default. preCompact
// fires before each automatic compaction (trigger "auto", verified) and
// lets atreides take its snapshot, but 1.0.102 fires nothing after one
// (no sessionStart of source "compact") on which it could be put back, so
// by default it would cost a process for nothing the model sees.
var optionalEvents = []string{PreCompact}

// defaultTimeout is the handlers' timeout in seconds when none is given.
// Copilot lets a tool call run when its hook times out (verified), so the
// hook must answer first: it is told this timeout (--timeout).
const defaultTimeout = install.DefaultTimeoutSeconds

var spec = &install.HookSpec{
	Host: Host, Name: "GitHub Copilot CLI", ConfigDir: ".github", Events: DefaultEvents, Optional: optionalEvents,
	Judged:    func() string { return "" },
	ParseNote: "GitHub Copilot CLI skips a hooks file it cannot parse; atreides left it untouched: fix the file and run again",
}

// InstallOptions configures Install.
type InstallOptions struct {
	HooksPath      string   // see HooksPath
	BinaryPath     string   // install.PortableBinary, or the absolute path of the atreides binary
	TimeoutSeconds int      // 0 means defaultTimeout
	Events         []string // nil means DefaultEvents
	BackupDir      string   // see install.BackupDir; "" keeps no backups
}

// Command is the command of the handler of an event: the event's name is
// passed with --event, since Copilot's payloads do not carry it, so that a
// tool call whose payload cannot be read is still refused.
func Command(bin, hostEvent string, timeoutSeconds int) string {
	return install.HookCommand(bin, Host, hostEvent, time.Duration(timeoutSeconds)*time.Second)
}

// Install registers `<bin> hook copilot` for each event in a hooks file:
// the user's entries stay in place and in order, a second run changes
// nothing, and another binary path updates ours in place.
func Install(o InstallOptions) (install.Report, error) {
	want, err := spec.WantGroups(install.Want{
		Kind: "hooks", Path: o.HooksPath, Bin: o.BinaryPath,
		Timeout: o.TimeoutSeconds, DefaultTimeout: defaultTimeout, Events: o.Events,
		Handler: func(ev string, timeout int) *install.Node {
			return install.CommandHandler(Command(o.BinaryPath, ev, timeout), timeout)
		},
	})
	if err != nil {
		return install.Report{Host: Host, Path: o.HooksPath}, err
	}
	return spec.Install(o.HooksPath, o.BinaryPath, o.BackupDir, want)
}

// Uninstall removes exactly the handlers of ours from a hooks file, and
// the file and directories install created once nothing else is left.
func Uninstall(path, backupDir string) (install.Report, error) {
	return spec.Uninstall(path, backupDir)
}

// Inspect reports what atreides has installed in a hooks file, for doctor.
func Inspect(path string) (install.Status, error) {
	st, _, err := spec.Inspect(path)
	return st, err
}
