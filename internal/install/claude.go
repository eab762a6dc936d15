package install

import (
	"errors"
	"fmt"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Scope selects which Claude Code settings file to edit.
type Scope int

// Claude Code settings scopes. The zero value is the project scope, the
// default of `atreides install`.
const (
	ScopeProject Scope = iota // <project>/.claude/settings.json, committed
	ScopeLocal                // <project>/.claude/settings.local.json, not committed
	ScopeUser                 // ~/.claude/settings.json, all projects
)

func (s Scope) String() string {
	switch s {
	case ScopeProject:
		return "project"
	case ScopeLocal:
		return "local"
	case ScopeUser:
		return "user"
	}
	return fmt.Sprintf("Scope(%d)", int(s))
}

// ParseScope parses "project", "local" or "user".
func ParseScope(s string) (Scope, error) {
	for _, sc := range []Scope{ScopeProject, ScopeLocal, ScopeUser} {
		if s == sc.String() {
			return sc, nil
		}
	}
	return 0, fmt.Errorf("unknown settings scope %q (want project, local or user)", s)
}

// ClaudeSettingsPath returns the Claude Code settings file of a scope. It
// returns "" for an unknown scope.
func ClaudeSettingsPath(scope Scope, projectDir, home string) string {
	switch scope {
	case ScopeProject:
		return filepath.Join(projectDir, ".claude", "settings.json")
	case ScopeLocal:
		return filepath.Join(projectDir, ".claude", "settings.local.json")
	case ScopeUser:
		return filepath.Join(home, ".claude", "settings.json")
	}
	return ""
}

// claudeJudgedMatcher limits PreToolUse and PermissionRequest to the
// Claude Code tools atreides' guard understands (claude.JudgedTools) and
// MCP tools, so a tool atreides has no opinion on does not cost a process
// start. The list is built here rather than in a package variable, whose
// init every hook process would run.
//
// The matcher is anchored because Claude Code treats a matcher with any
// character outside [A-Za-z0-9_ ,|-] as an unanchored JavaScript regex:
// without ^…$ "Edit" would also match "NotebookEditFoo", "Read" any
// "…Read…" MCP tool, and so on.
func claudeJudgedMatcher() string {
	return "^(" + strings.Join(claude.JudgedTools(), "|") + ")$|^mcp__"
}

// DefaultClaudeEvents are the events atreides registers for, in the order
// it writes them. Notification is left out on purpose: it is observe-only
// (no decision can be returned), fires on idle and permission prompts
// where atreides has nothing to add, and cannot be triggered in `claude -p`,
// so it could not be tested end to end. It can still be asked for.
var DefaultClaudeEvents = []string{
	"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
	"PostToolUse", "PostToolUseFailure", "Stop", "SubagentStart",
	"SubagentStop", "PreCompact", "PostCompact", "SessionEnd",
}

// claudeMatcher is the matcher atreides writes for each supported event.
// "" writes no matcher: all occurrences (SessionStart on every source,
// compaction of both kinds, ...) or an event without matcher support.
// PostToolUse/PostToolUseFailure match every tool ("*", spelled out so a
// reader sees it is deliberate): history and error recognition need every
// call, not only the judged ones.
func claudeMatcher(event string) (string, bool) {
	switch event {
	case "PreToolUse", "PermissionRequest":
		return claudeJudgedMatcher(), true
	case "PostToolUse", "PostToolUseFailure":
		return "*", true
	case "Notification":
		return "", true
	}
	if slices.Contains(DefaultClaudeEvents, event) {
		return "", true
	}
	return "", false
}

// DefaultTimeoutSeconds is the per-handler timeout written when none is
// given. atreides answers in milliseconds; Claude's own default (600 s)
// would let a wedged hook stall the session for ten minutes, and a
// timed-out hook fails open anyway.
const DefaultTimeoutSeconds = 10

// ClaudeOptions configures InstallClaude.
type ClaudeOptions struct {
	SettingsPath   string   // see ClaudeSettingsPath
	BinaryPath     string   // PortableBinary, or the absolute path of the atreides binary
	TimeoutSeconds int      // 0 means DefaultTimeoutSeconds
	Events         []string // nil means DefaultClaudeEvents
	BackupDir      string   // see BackupDir; "" keeps no backups
}

// ClaudeCommand is the command string registered for bin with a timeout.
func ClaudeCommand(bin string, timeoutSeconds int) string {
	return claudeSpec.hookCommand(bin, time.Duration(timeoutSeconds)*time.Second)
}

// claudeSpec is Claude Code for the shared install machinery.
var claudeSpec = &hostSpec{Host: "claude", Name: "Claude Code", ConfigDir: ".claude", Events: DefaultClaudeEvents}

// isClaudeHandler recognises our handler by its command (see
// hostSpec.handlerBinary).
func isClaudeHandler(h *Node) bool { return claudeSpec.isOurs(h) }

func isAtreidesName(base string) bool {
	return base == "atreides" || strings.EqualFold(base, "atreides.exe")
}

// InstallClaude registers `<bin> hook claude` in a Claude Code settings
// file, keeping everything of the user's in place and in order. Running it
// twice changes nothing; running it with another binary path updates our
// handlers in place.
func InstallClaude(opts ClaudeOptions) (Report, error) {
	want, err := claudeWant(opts)
	if err != nil {
		return Report{Host: claudeSpec.Host, Path: opts.SettingsPath}, err
	}
	return claudeSpec.installHooks(opts.SettingsPath, opts.BinaryPath, opts.BackupDir, want)
}

func claudeWant(opts ClaudeOptions) ([]wantGroup, error) {
	bin := opts.BinaryPath
	timeout, events, err := checkWant("settings", opts.SettingsPath, bin, opts.TimeoutSeconds, DefaultTimeoutSeconds, opts.Events, DefaultClaudeEvents)
	if err != nil {
		return nil, err
	}
	var want []wantGroup
	seen := map[string]bool{}
	for _, ev := range events {
		m, ok := claudeMatcher(ev)
		if !ok {
			return nil, fmt.Errorf("install: atreides does not handle the Claude Code event %q (supported: %s, Notification)", ev, strings.Join(DefaultClaudeEvents, ", "))
		}
		if seen[ev] {
			continue
		}
		seen[ev] = true
		want = append(want, wantGroup{Event: ev, Matcher: m, Handler: NewObject(
			Member{Key: "type", Value: NewString("command")},
			Member{Key: "command", Value: NewString(ClaudeCommand(bin, timeout))},
			Member{Key: "timeout", Value: NewInt(timeout)},
		)})
	}
	return want, nil
}

// checkExecutable returns "" when path is an executable regular file, or
// what is wrong with it.
func checkExecutable(path string) string {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case err != nil:
		return "cannot be checked: " + err.Error()
	case !fi.Mode().IsRegular():
		return "is not a regular file"
	case fi.Mode().Perm()&0o111 == 0:
		return "is not executable"
	}
	return ""
}

// UninstallClaude removes exactly the handlers of ours from a Claude Code
// settings file, then the groups, event lists and "hooks" object that their
// removal left empty; a file still exactly as install left it gets its
// previous content back byte for byte (see backup.go). A missing file, or
// one without our handlers, is not written.
func UninstallClaude(path, backupDir string) (Report, error) {
	return claudeSpec.uninstallHooks(path, backupDir)
}

// InspectClaude reports what atreides has installed in a Claude Code
// settings file, for doctor. A file that does not parse or has the wrong
// shape is a finding (Status.Problem), not an error; the error is for
// failures to inspect at all (e.g. permission denied).
func InspectClaude(path string) (Status, error) {
	st, _, err := claudeSpec.inspectHooks(path)
	return st, err
}

// resolveBinary works out which file a handler of ours will run. Relative
// paths resolve against the project directory (hooks run there) when the
// file is in a project's configDir (".claude"); bare names go through PATH.
func resolveBinary(h *Node, settingsPath, configDir string) *Binary {
	cmd, _ := h.Get("command").Str()
	words, dynamic, _ := guard.Argv(cmd)
	word := ""
	if len(words) > 0 {
		word = words[0]
	}
	b := &Binary{Command: word}
	switch {
	case dynamic:
		b.Problem = "depends on shell expansion; cannot be checked"
		return b
	case filepath.IsAbs(word):
		b.Resolved = word
	case !strings.ContainsRune(word, '/'):
		p, err := exec.LookPath(word)
		if err != nil {
			b.Problem = "not found in PATH"
			return b
		}
		b.Resolved = p
	default:
		dir := filepath.Dir(settingsPath)
		if filepath.Base(dir) != configDir {
			b.Problem = "relative path; cannot tell which directory it is relative to"
			return b
		}
		b.Resolved = filepath.Join(filepath.Dir(dir), word)
	}
	b.Problem = checkExecutable(b.Resolved)
	b.Executable = b.Problem == ""
	return b
}
