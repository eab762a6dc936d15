package install

import (
	"fmt"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Gemini CLI (0.61.0) keeps hooks in settings.json under "hooks", in the
// same event → matcher group → handler shape as Claude Code, with three
// differences that matter here: the timeout is in milliseconds, a handler
// may carry a "name" (which `hooksConfig.disabled` refers to, and which
// together with the command deduplicates the same hook found in the project
// and the user file), and settings.json may hold comments (Gemini strips
// them before parsing).

// GeminiHookName is the "name" written on every handler of ours. Gemini
// shows it in /hooks and matches it against hooksConfig.disabled; a stable
// name lets a user disable atreides without knowing the binary path.
const GeminiHookName = "atreides"

// GeminiSettingsPath returns the Gemini CLI settings file of a scope:
// ScopeProject is <project>/.gemini/settings.json, ScopeUser
// ~/.gemini/settings.json. Gemini has no local scope; it returns "" for it
// and for an unknown scope.
func GeminiSettingsPath(scope Scope, projectDir, home string) string {
	switch scope {
	case ScopeProject:
		return filepath.Join(projectDir, ".gemini", "settings.json")
	case ScopeUser:
		return filepath.Join(home, ".gemini", "settings.json")
	}
	return ""
}

// geminiJudgedMatcher limits BeforeTool to the Gemini CLI built-in tools
// the gemini adapter judges (gemini.JudgedTools) and MCP tools. The list is
// built here rather than in a package variable, whose init every hook
// process would run.
//
// Gemini tests a matcher as an unanchored JavaScript regex (only "" and "*"
// mean all), so the names are anchored: without ^…$ "read_file" would also
// match "mcp_x_read_file_fast". Gemini 0.61.0 names MCP tools
// "mcp_<server>_<tool>" (one underscore, unlike Claude's mcp__).
func geminiJudgedMatcher() string {
	tools := gemini.JudgedTools()
	quoted := make([]string, len(tools))
	for i, n := range tools {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(quoted, "|") + ")$|^mcp_"
}

// DefaultGeminiEvents are the events atreides registers for with Gemini CLI,
// in the order it writes them. Left out on purpose:
//   - PreCompress: advisory only (compression cannot be refused or
//     shaped), and 0.61.0 fires it with trigger "auto" before every model
//     turn whether or not it compresses, so it would cost a process start
//     per turn for nothing. It can still be asked for.
//   - Notification: observe-only, and fires on permission prompts where
//     atreides has nothing to add. It can still be asked for.
//   - BeforeModel, AfterModel, BeforeToolSelection: no atreides meaning;
//     the adapter decodes them as unknown and AfterModel fires per chunk.
var DefaultGeminiEvents = []string{
	"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd",
}

// geminiOptionalEvents are handled by the adapter but not registered by
// default (see DefaultGeminiEvents).
var geminiOptionalEvents = []string{"PreCompress", "Notification"}

// geminiMatcher is the matcher written per event. AfterTool matches every
// tool ("*", spelled out so a reader sees it is deliberate): history and
// error recognition need every call. Events without a tool name get no
// matcher: all sources (SessionStart, SessionEnd), or no matcher support.
func geminiMatcher(event string) (string, bool) {
	switch event {
	case "BeforeTool":
		return geminiJudgedMatcher(), true
	case "AfterTool":
		return "*", true
	}
	if slices.Contains(DefaultGeminiEvents, event) || slices.Contains(geminiOptionalEvents, event) {
		return "", true
	}
	return "", false
}

// DefaultGeminiTimeoutMillis is the per-handler timeout written when none is
// given: the same ten seconds as for Claude Code, in Gemini's milliseconds
// (its own default is 60000).
const DefaultGeminiTimeoutMillis = DefaultTimeoutSeconds * 1000

// GeminiOptions configures InstallGemini.
type GeminiOptions struct {
	SettingsPath  string   // see GeminiSettingsPath
	BinaryPath    string   // PortableBinary, or the absolute path of the atreides binary
	TimeoutMillis int      // 0 means DefaultGeminiTimeoutMillis
	Events        []string // nil means DefaultGeminiEvents
	Scope         Scope    // which file SettingsPath is; only chooses the notes
	BackupDir     string   // see BackupDir; "" keeps no backups
}

// geminiSpec is Gemini CLI for the shared install machinery. "enabled",
// "disabled" and "notifications" under "hooks" are settings Gemini skips
// when it reads events (HOOKS_CONFIG_FIELDS in its bundle), and an event
// whose value is not a list is skipped with a warning, not fatal.
var geminiSpec = &HookSpec{
	Host: "gemini", Name: "Gemini CLI", ConfigDir: ".gemini", Events: DefaultGeminiEvents,
	NonEvents: []string{"enabled", "disabled", "notifications"}, LenientEvents: true, JSONC: true,
	ParseNote: "Gemini CLI reports an error for a settings file it cannot parse; atreides left it untouched: fix the file and run again",
}

// GeminiCommand is the command string registered for bin with a timeout.
func GeminiCommand(bin string, timeoutMillis int) string {
	return geminiSpec.Command(bin, time.Duration(timeoutMillis)*time.Millisecond)
}

// InstallGemini registers `<bin> hook gemini` in a Gemini CLI settings
// file, with the same guarantees as claude.Install: the user's settings and
// hooks stay in place and in order, a second run changes nothing, and
// another binary path updates our handlers in place.
func InstallGemini(opts GeminiOptions) (Report, error) {
	r := Report{Host: geminiSpec.Host, Path: opts.SettingsPath}
	want, err := geminiWant(opts)
	if err != nil {
		return r, err
	}
	r, err = geminiSpec.Install(opts.SettingsPath, opts.BinaryPath, opts.BackupDir, want)
	if err != nil {
		return r, err
	}
	if opts.Scope == ScopeProject && r.Action != ActionUnchanged {
		r.Notes = append(r.Notes, "Gemini CLI runs project hooks only in a trusted folder, and warns about them once when they are new or changed")
	}
	return r, nil
}

func geminiWant(opts GeminiOptions) ([]WantGroup, error) {
	bin := opts.BinaryPath
	timeout, events, err := CheckWant("settings", opts.SettingsPath, bin, opts.TimeoutMillis, DefaultGeminiTimeoutMillis, opts.Events, DefaultGeminiEvents)
	if err != nil {
		return nil, err
	}
	var want []WantGroup
	seen := map[string]bool{}
	for _, ev := range events {
		m, ok := geminiMatcher(ev)
		if !ok {
			return nil, fmt.Errorf("install: atreides does not handle the Gemini CLI event %q (supported: %s, %s)", ev,
				strings.Join(DefaultGeminiEvents, ", "), strings.Join(geminiOptionalEvents, ", "))
		}
		if seen[ev] {
			continue
		}
		seen[ev] = true
		want = append(want, WantGroup{Event: ev, Matcher: m, Handler: NewObject(
			Member{Key: "type", Value: NewString("command")},
			Member{Key: "name", Value: NewString(GeminiHookName)},
			Member{Key: "command", Value: NewString(GeminiCommand(bin, timeout))},
			Member{Key: "timeout", Value: NewInt(timeout)},
		)})
	}
	return want, nil
}

// UninstallGemini removes exactly the handlers of ours from a Gemini CLI
// settings file (see claude.Uninstall).
func UninstallGemini(path, backupDir string) (Report, error) {
	return geminiSpec.Uninstall(path, backupDir)
}

// InstallGeminiMCP registers `<bin> mcp --host gemini` as the "atreides"
// MCP server in a Gemini CLI settings file (mcpServers, next to our hooks),
// keeping every other server as it was. Gemini CLI 0.61.0 starts it in a
// trusted folder, names its tools mcp_atreides_<tool>, and sets
// GEMINI_CLI=1 but no session id in its environment (observed; the tools
// are asserted in test/e2e/mcp_hosts_test.go). Nothing is registered when
// atreides-mcp is missing next to bin.
func InstallGeminiMCP(path, bin, backupDir string) (Report, error) {
	return installMCPServer(geminiMCP(path, backupDir), bin)
}

// UninstallGeminiMCP removes the "atreides" server if atreides wrote it.
func UninstallGeminiMCP(path, backupDir string) (Report, error) {
	return uninstallMCPServer(geminiMCP(path, backupDir))
}

// InspectGeminiMCP reports whether a Gemini settings file registers our
// server and whether it can start.
func InspectGeminiMCP(path string) (registered bool, problem string, err error) {
	return inspectMCPServer(geminiMCP(path, ""))
}

func geminiMCP(path, backupDir string) mcpFile {
	return mcpFile{host: "gemini", path: path, backupDir: backupDir, spec: geminiSpec, hostArg: true}
}

// InspectGemini reports what atreides has installed in a Gemini CLI
// settings file, for doctor (see claude.Inspect); comments are read past,
// as Gemini does. Status.Disabled is set when hooksConfig in this file
// switches hooks off or lists our name as disabled; Gemini merges
// hooksConfig.disabled across the user and project files, so a name
// disabled in one file disables our hooks in both.
func InspectGemini(path string) (Status, error) {
	st, doc, err := geminiSpec.Inspect(path)
	if err != nil {
		return st, err
	}
	if doc != nil {
		st.Disabled, st.Notes = geminiDisabled(doc, st.Notes)
	}
	return st, nil
}

// geminiDisabled reports whether doc switches our hooks off.
func geminiDisabled(doc *Node, notes []string) (string, []string) {
	cfg := doc.Get("hooksConfig")
	if on, ok := cfg.Get("enabled").Bool(); ok && !on {
		return "hooksConfig.enabled is false: Gemini CLI runs no hooks at all", notes
	}
	for _, n := range cfg.Get("disabled").Elems() {
		if s, _ := n.Str(); s == GeminiHookName {
			return fmt.Sprintf("hooksConfig.disabled lists %q: Gemini CLI does not run atreides's hooks (remove it from the list, or run /hooks enable %s)", GeminiHookName, GeminiHookName), notes
		}
	}
	for _, n := range doc.Get("hooks").Get("disabled").Elems() {
		if s, _ := n.Str(); s == GeminiHookName {
			notes = append(notes, fmt.Sprintf("hooks.disabled lists %q: Gemini CLI 0.61.0 ignores that key (it reads hooksConfig.disabled), but other versions may disable atreides's hooks by it", GeminiHookName))
		}
	}
	return "", notes
}

// stripJSONComments blanks out // and /* */ comments outside strings,
// keeping newlines so positions stay where they were.
func stripJSONComments(data []byte) []byte {
	out := slices.Clone(data)
	inString, escaped := false, false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			i += 2
			for ; i < len(out); i++ {
				if out[i] == '*' && i+1 < len(out) && out[i+1] == '/' {
					out[i], out[i+1] = ' ', ' '
					i++
					break
				}
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
		}
	}
	return out
}
