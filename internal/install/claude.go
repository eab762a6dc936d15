package install

import (
	"errors"
	"fmt"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
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

// ClaudeJudgedTools are the Claude Code tools atreides' guard understands.
// PreToolUse and PermissionRequest fire only for these and MCP tools, so a
// tool atreides has no opinion on does not cost a process start.
var ClaudeJudgedTools = claude.JudgedTools()

// claudeJudgedMatcher is anchored because Claude Code treats a matcher with
// any character outside [A-Za-z0-9_ ,|-] as an unanchored JavaScript regex:
// without ^…$ "Edit" would also match "NotebookEditFoo", "Read" any
// "…Read…" MCP tool, and so on.
func claudeJudgedMatcher() string {
	return "^(" + strings.Join(ClaudeJudgedTools, "|") + ")$|^mcp__"
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
	BinaryPath     string   // absolute path of the atreides binary
	TimeoutSeconds int      // 0 means DefaultTimeoutSeconds
	Events         []string // nil means DefaultClaudeEvents
}

// ClaudeCommand is the command string registered for bin.
func ClaudeCommand(bin string) string {
	return shellQuote(bin) + " hook claude"
}

// isClaudeHandler recognises our handler by its command, not its position:
// a shell-form command hook whose program is named atreides and whose
// arguments start with "hook claude". Exec-form handlers (with "args") are
// never written by us and are left to the user.
func isClaudeHandler(h *Node) bool {
	_, ok := claudeHandlerBinary(h)
	return ok
}

func claudeHandlerBinary(h *Node) (bin string, ok bool) {
	if h.Kind() != KindObject || h.Get("args") != nil {
		return "", false
	}
	if t, _ := h.Get("type").Str(); t != "command" {
		return "", false
	}
	cmd, _ := h.Get("command").Str()
	word, rest, _, ok := firstWord(cmd)
	if !ok || !isAtreidesName(baseName(word)) {
		return "", false
	}
	f := strings.Fields(rest)
	if len(f) < 2 || f[0] != "hook" || f[1] != "claude" {
		return "", false
	}
	return word, true
}

func isAtreidesName(base string) bool {
	return base == "atreides" || strings.EqualFold(base, "atreides.exe")
}

// InstallClaude registers `<bin> hook claude` in a Claude Code settings
// file, keeping everything of the user's in place and in order. Running it
// twice changes nothing; running it with another binary path updates our
// handlers in place.
func InstallClaude(opts ClaudeOptions) (Report, error) {
	r := Report{Host: "claude", Path: opts.SettingsPath}
	want, err := claudeWant(opts)
	if err != nil {
		return r, err
	}
	f, err := loadSettings(opts.SettingsPath)
	if err != nil {
		return r, err
	}
	r.Created = !f.exists
	hadOurs := false
	if h, err := hooksObject(f.doc, false); err == nil && h != nil {
		for _, m := range h.Members() {
			if countOurs(m.Value, isClaudeHandler) > 0 {
				hadOurs = true
			}
		}
	}
	ch, err := applyHooks(f.doc, want, isClaudeHandler)
	if err != nil {
		return r, &ShapeError{Path: opts.SettingsPath, Msg: err.Error()}
	}
	r.Added, r.Updated, r.Removed = ch.Added, ch.Updated, ch.Removed
	r.Warnings = binaryWarnings(opts.BinaryPath)
	if ch.empty() {
		// No semantic change: do not rewrite, so a compact or oddly
		// formatted file keeps its bytes.
		r.Action = ActionUnchanged
		return r, nil
	}
	r.Action = ActionUpdated
	if !hadOurs {
		r.Action = ActionInstalled
	}
	if r.Backup, err = f.save(); err != nil {
		return r, err
	}
	return r, nil
}

func claudeWant(opts ClaudeOptions) ([]wantGroup, error) {
	if opts.SettingsPath == "" {
		return nil, errors.New("install: no settings path")
	}
	bin := opts.BinaryPath
	if !filepath.IsAbs(bin) {
		// Hooks run from the project dir with the host's PATH; only an
		// absolute path is sure to name the same program.
		return nil, fmt.Errorf("install: binary path %q is not absolute", bin)
	}
	if !isAtreidesName(filepath.Base(bin)) {
		// Our handlers are found again by the program name; another name
		// would make every install add a new handler.
		return nil, fmt.Errorf("install: binary %q must be named atreides so its hooks can be recognised for update and uninstall", bin)
	}
	timeout := opts.TimeoutSeconds
	if timeout == 0 {
		timeout = DefaultTimeoutSeconds
	}
	if timeout < 0 {
		return nil, fmt.Errorf("install: negative timeout %d", timeout)
	}
	events := opts.Events
	if events == nil {
		events = DefaultClaudeEvents
	}
	if len(events) == 0 {
		return nil, errors.New("install: no events selected")
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
			Member{Key: "command", Value: NewString(ClaudeCommand(bin))},
			Member{Key: "timeout", Value: NewInt(timeout)},
		)})
	}
	return want, nil
}

func binaryWarnings(bin string) []string {
	if p := checkExecutable(bin); p != "" {
		return []string{fmt.Sprintf("binary %s %s; Claude Code fails open when a hook cannot run", bin, p)}
	}
	return nil
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
// removal left empty. A missing file, or one without our handlers, is not
// written.
func UninstallClaude(path string) (Report, error) {
	r := Report{Host: "claude", Path: path, Action: ActionNothingToDo}
	f, err := loadSettings(path)
	if err != nil {
		return r, err
	}
	if !f.exists {
		return r, nil
	}
	removed, err := removeHooks(f.doc, isClaudeHandler)
	if err != nil {
		return r, &ShapeError{Path: path, Msg: err.Error()}
	}
	if len(removed) == 0 {
		return r, nil
	}
	r.Action, r.Removed = ActionRemoved, removed
	if r.Backup, err = f.save(); err != nil {
		return r, err
	}
	return r, nil
}

// InspectClaude reports what atreides has installed in a Claude Code
// settings file, for doctor. A file that does not parse or has the wrong
// shape is a finding (Status.Problem), not an error; the error is for
// failures to inspect at all (e.g. permission denied).
func InspectClaude(path string) (Status, error) {
	st := Status{Host: "claude", Path: path}
	f, err := loadSettings(path)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			st.Exists, st.Problem = true, err.Error()
			return st, nil
		}
		return st, err
	}
	st.Exists = f.exists
	hooks, err := hooksObject(f.doc, false)
	if err != nil {
		st.Problem = (&ShapeError{Path: path, Msg: err.Error()}).Error()
		return st, nil
	}
	for _, m := range hooks.Members() {
		if m.Value.Kind() != KindArray {
			// Claude Code's schema check rejects this, so nothing in the
			// file may be in effect.
			st.Problem = fmt.Sprintf("%s: %s is a JSON %s, but it must be a list of matcher groups", path, jsonPath("hooks", m.Key), m.Value.Kind())
			return st, nil
		}
	}
	st.Parses = f.exists
	bins := map[string]*Binary{}
	var order []string
	for _, m := range hooks.Members() {
		n := 0
		for _, g := range m.Value.Elems() {
			for _, h := range groupHandlers(g).Elems() {
				word, ok := claudeHandlerBinary(h)
				if !ok {
					continue
				}
				n++
				b := bins[word]
				if b == nil {
					b = resolveBinary(h, path)
					bins[word] = b
					order = append(order, word)
				}
				if !slices.Contains(b.Events, m.Key) {
					b.Events = append(b.Events, m.Key)
				}
			}
		}
		if n > 0 {
			st.Events = append(st.Events, m.Key)
		}
		if n > 1 {
			st.Duplicated = append(st.Duplicated, m.Key)
		}
	}
	if len(st.Events) > 0 {
		for _, ev := range DefaultClaudeEvents {
			if !slices.Contains(st.Events, ev) {
				st.Missing = append(st.Missing, ev)
			}
		}
	}
	for _, w := range order {
		st.Binaries = append(st.Binaries, *bins[w])
	}
	return st, nil
}

// resolveBinary works out which file a handler of ours will run. Relative
// paths resolve against the project directory (hooks run there) when the
// file is a project's .claude settings; bare names go through PATH.
func resolveBinary(h *Node, settingsPath string) *Binary {
	cmd, _ := h.Get("command").Str()
	word, _, dynamic, _ := firstWord(cmd)
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
		if filepath.Base(dir) != ".claude" {
			b.Problem = "relative path; cannot tell which directory it is relative to"
			return b
		}
		b.Resolved = filepath.Join(filepath.Dir(dir), word)
	}
	b.Problem = checkExecutable(b.Resolved)
	b.Executable = b.Problem == ""
	return b
}
