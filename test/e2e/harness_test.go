package e2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// Pinned host versions (keep in step with test/e2e/hosts/package.json).
const claudePinned = "2.1.332"

// claudeCLI is Claude Code, located by TestMain: the atreides binaries are
// built only when it is there.
var claudeCLI = &hostCLI{name: "claude", envVar: "ATREIDES_CLAUDE_BIN", pinned: claudePinned,
	// "2.1.332 (Claude Code)"
	version: func(out string) string { return strings.Fields(out)[0] }}

// runTimeout bounds one host CLI run.
const runTimeout = 90 * time.Second

var (
	repoRoot    string
	atreidesBin string // built once by TestMain; empty when the build failed
	atreidesErr error  // why atreidesBin is empty
	claudeBin   string // empty when not found
	claudeErr   error
	runSlots    chan struct{} // bounds concurrent host runs (2 cores)
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	var err error
	repoRoot, err = findRepoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	n := 2
	if v, err := strconv.Atoi(os.Getenv("ATREIDES_E2E_PARALLEL")); err == nil && v > 0 {
		n = v
	}
	runSlots = make(chan struct{}, n)

	claudeBin, claudeErr = claudeCLI.locate()

	tmp, err := os.MkdirTemp("", "atreides-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	// Build only when a host is there to drive it (saves ~seconds on dev
	// machines without the hosts installed).
	if claudeErr == nil {
		atreidesBin, atreidesErr = buildAtreides(tmp)
	}
	return m.Run()
}

func findRepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// buildAtreides builds atreides and, next to it, its companion programs:
// atreides-ui, atreides-otel, atreides-team (the team store) and atreides-mcp (the agent's
// MCP tools, which 'atreides install claude' registers when it is there).
func buildAtreides(dir string) (string, error) {
	for _, name := range []string{"atreides", "atreides-mcp", "atreides-ui", "atreides-otel", "atreides-team"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), "./cmd/"+name)
		cmd.Dir = repoRoot
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build ./cmd/%s: %v\n%s", name, err, b)
		}
	}
	return filepath.Join(dir, "atreides"), nil
}

// scratchDir is a throwaway directory for one scenario's project and HOME,
// inside the checkout (test/e2e/.scratch). A checkout in /tmp with HOME in
// /tmp too (a CI container, a newcomer's first try) is fine: the guard
// never counts the project or the home directory as temp scratch space
// (guard/paths.go), and the project root is never found by walking up to
// a marker in a temp or home directory (project.Root);
// TestUnderTempWithoutHost proves both without a host.
func scratchDir(t *testing.T) string {
	t.Helper()
	base := filepath.Join(repoRoot, "test", "e2e", ".scratch")
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(base, "run-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !t.Failed() || os.Getenv("ATREIDES_E2E_ARTIFACTS") == "" {
			os.RemoveAll(dir)
		}
	})
	return dir
}

// commandBound is how long a command a scenario runs itself (git, an
// atreides command) may take: ample for a loaded machine.
const commandBound = 2 * time.Minute

// boundedCommand is name with args, killed when it runs past
// commandBound: whatever waits on it ends, and the test fails with the
// command's error instead of hanging. WaitDelay ends the wait too when a
// child the command started (a background task, a server) still holds
// its output open after the kill.
func boundedCommand(t testing.TB, name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), commandBound)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// initProject makes dir a repository of its own, so that atreides finds
// dir as its project root by walking up to .git and does not walk up into
// the checkout's, and fails the test when atreides would find another
// root: a scenario never depends on what lies above its scratch directory
// (a .git or a .atreides left in an ancestor, at / or in /tmp).
func initProject(t *testing.T, dir string) {
	t.Helper()
	if out, err := boundedCommand(t, "git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if root := project.Root("", dir); root != dir {
		t.Fatalf("the scratch project %s has the project root %q, not itself: what lies above it decides", dir, root)
	}
}

// requireClaude skips (or, under CI / ATREIDES_E2E_REQUIRE=1, fails) when the
// claude CLI is not installed.
func requireClaude(t *testing.T) {
	t.Helper()
	if claudeErr != nil {
		missing(t, claudeErr)
	}
}

// missing skips the test for want of a prerequisite (a host CLI,
// chromium), or fails it under CI or ATREIDES_E2E_REQUIRE=1, where a skip
// would let a run that tested nothing pass.
func missing(t *testing.T, err error) {
	t.Helper()
	if os.Getenv("CI") != "" || os.Getenv("ATREIDES_E2E_REQUIRE") == "1" {
		t.Fatal(err)
	}
	t.Skip(err)
}

// requireAtreides fails the test when the atreides binary could not be built.
func requireAtreides(t *testing.T) {
	t.Helper()
	requireClaude(t)
	if atreidesBin == "" {
		t.Fatalf("atreides binary unavailable: %v", atreidesErr)
	}
}

// Project is one scenario's scratch project, throwaway HOME and fake model.
type Project struct {
	t    *testing.T
	Dir  string // project root (the host's working directory)
	Home string
	Fake *fakeanthropic.Server
	runs int // claude runs so far (artifact names)
}

// NewProject makes a fresh project dir and HOME and starts a fake model
// server with the script.
func NewProject(t *testing.T, script fakeanthropic.Script) *Project {
	t.Helper()
	root := scratchDir(t)
	p := &Project{t: t, Dir: filepath.Join(root, "proj"), Home: filepath.Join(root, "home")}
	for _, d := range []string{p.Dir, p.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	initProject(t, p.Dir)
	p.Fake = fakeanthropic.Start(t, script)
	t.Cleanup(func() {
		// An endpoint the fake does not serve means the pinned host changed
		// what it calls: teach the fake before trusting the scenario.
		for _, r := range p.Fake.RequestsOf(fakeanthropic.KindNotFound) {
			t.Errorf("host called an endpoint the fake model does not serve: %s %s", r.Method, r.Path)
		}
		if t.Failed() && len(p.Fake.Requests()) > 0 {
			t.Logf("fake model requests:\n%s", p.Fake.Summary())
		}
		p.saveArtifacts("requests.jsonl", nil)
	})
	return p
}

// Path is a path inside the project.
func (p *Project) Path(rel string) string { return filepath.Join(p.Dir, filepath.FromSlash(rel)) }

// WriteFile writes a file (creating parents) inside the project.
func (p *Project) WriteFile(rel, content string, mode os.FileMode) {
	p.t.Helper()
	path := p.Path(rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		p.t.Fatal(err)
	}
}

// Exists reports whether a project path exists.
func (p *Project) Exists(rel string) bool {
	_, err := os.Stat(p.Path(rel))
	return err == nil
}

// Victim creates a directory with a file in it, as a target for destructive
// commands.
func (p *Project) Victim(rel string) {
	p.WriteFile(rel+"/precious.txt", "do not delete\n", 0o644)
}

// env is the clean environment for host and atreides processes. The
// built atreides comes first on PATH, as the installed one does on a
// user's machine: the project's settings name it without a path.
func (p *Project) env() []string {
	return []string{
		"PATH=" + filepath.Dir(atreidesBin) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + p.Home,
		"LANG=C.UTF-8",
		"ANTHROPIC_BASE_URL=" + p.Fake.URL,
		"ANTHROPIC_API_KEY=sk-ant-fake",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"IS_SANDBOX=1", // lets --dangerously-skip-permissions run as root
	}
}

// Atreides runs the atreides binary in the project dir and fails the test
// if it exits non-zero.
func (p *Project) Atreides(args ...string) string {
	p.t.Helper()
	requireAtreides(p.t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, atreidesBin, args...)
	cmd.Dir = p.Dir
	cmd.Env = p.env()
	cmd.Stdin = nil
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("atreides %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// NewSessionID is a fresh session id for a host that takes one from its
// caller (Claude Code's --session-id): the test can then give that
// session a todo before it starts.
func NewSessionID(t *testing.T) string {
	t.Helper()
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// SessionTodo puts a todo on session sid's checklist, as `atreides todo
// add` run by that session's agent does: only a session's own todos hold
// its stop (docs/work-items.md), not one a person or script adds.
func (p *Project) SessionTodo(sid, text string) {
	p.t.Helper()
	p.Atreides("todo", "add", "--session", sid, text)
}

// InstallAtreides installs atreides's Claude hooks into the project the way a
// user would, then checks the settings file is valid JSON that runs
// atreides through PATH, not this machine's path (Claude silently ignores a
// malformed settings file, and the file is committed).
func (p *Project) InstallAtreides() {
	p.t.Helper()
	p.Atreides("install", "claude", "--project")
	b, err := os.ReadFile(p.Path(".claude/settings.json"))
	if err != nil {
		p.t.Fatalf("after atreides install claude --project: %v", err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		p.t.Fatalf(".claude/settings.json is not valid JSON (Claude would ignore it): %v\n%s", err, b)
	}
	if _, ok := v["hooks"]; !ok || !bytes.Contains(b, []byte(`"atreides hook claude --timeout `)) || bytes.Contains(b, []byte(atreidesBin)) {
		p.t.Fatalf(".claude/settings.json has no hooks running atreides through PATH:\n%s", b)
	}
}

// RunOpts tunes one claude run.
type RunOpts struct {
	// NoSkipPermissions leaves Claude's own permission layer on (default:
	// --dangerously-skip-permissions, so only hooks can stop a tool).
	NoSkipPermissions bool
	Args              []string // extra CLI flags
	Env               []string // extra KEY=value entries (override the defaults)
}

// Result is the outcome of one claude run.
type Result struct {
	ExitCode int
	Stdout   string
	Stderr   string
	Duration time.Duration
	Events   []map[string]any // stream-json lines
	Final    map[string]any   // the type:"result" event (nil if missing)
}

// HookResponses returns the stream-json hook_response events whose hook_event
// ("Stop", "PreToolUse") or hook_name ("PreToolUse:Bash",
// "SessionStart:startup") equals name; one per handler run.
func (r *Result) HookResponses(name string) []map[string]any {
	var out []map[string]any
	for _, e := range r.Events {
		if e["type"] == "system" && e["subtype"] == "hook_response" && (e["hook_event"] == name || e["hook_name"] == name) {
			out = append(out, e)
		}
	}
	return out
}

// SessionID is the session id from the result event.
func (r *Result) SessionID() string {
	s, _ := r.Final["session_id"].(string)
	return s
}

// RunClaude runs `claude -p prompt` headless in the project (stream-json with
// hook events, clean env, stdin /dev/null, 90 s timeout). It fails the test
// if claude does not exit 0 or prints no result event.
func (p *Project) RunClaude(prompt string, o RunOpts) *Result {
	p.t.Helper()
	requireClaude(p.t)
	args := []string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--include-hook-events"}
	if !o.NoSkipPermissions {
		args = append(args, "--dangerously-skip-permissions")
	}
	args = append(args, o.Args...)

	runSlots <- struct{}{}
	defer func() { <-runSlots }()

	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, claudeBin, args...)
	cmd.Dir = p.Dir
	cmd.Env = append(p.env(), o.Env...)
	cmd.Stdin = nil // /dev/null
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := &Result{Stdout: stdout.String(), Stderr: stderr.String(), Duration: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
	default:
		p.t.Fatalf("running claude: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(res.Stdout))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var ev map[string]any
		if json.Unmarshal(sc.Bytes(), &ev) == nil {
			res.Events = append(res.Events, ev)
			if ev["type"] == "result" {
				res.Final = ev
			}
		}
	}
	p.t.Logf("claude run: exit=%d in %v, %d model requests", res.ExitCode, res.Duration.Round(time.Millisecond), len(p.Fake.RequestsOf()))
	p.runs++
	p.saveArtifacts(fmt.Sprintf("claude-%d.stdout.jsonl", p.runs), stdout.Bytes())
	p.saveArtifacts(fmt.Sprintf("claude-%d.stderr.txt", p.runs), stderr.Bytes())
	if ctx.Err() != nil {
		p.t.Fatalf("claude timed out after %v\nstderr:\n%s", runTimeout, res.Stderr)
	}
	if res.ExitCode != 0 || res.Final == nil {
		p.t.Fatalf("claude exit %d, result event present=%v\nstderr:\n%s\nstdout tail:\n%s",
			res.ExitCode, res.Final != nil, res.Stderr, tail(res.Stdout, 3000))
	}
	return res
}

// saveArtifacts copies data (or the request log when data is nil) to
// $ATREIDES_E2E_ARTIFACTS/<test name>/name.
func (p *Project) saveArtifacts(name string, data []byte) {
	root := os.Getenv("ATREIDES_E2E_ARTIFACTS")
	if root == "" {
		return
	}
	dir := filepath.Join(root, strings.ReplaceAll(p.t.Name(), "/", "__"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Logf("artifacts: %v", err)
		return
	}
	path := filepath.Join(dir, name)
	var err error
	if data == nil {
		err = p.Fake.WriteJSONL(path)
	} else {
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		p.t.Logf("artifacts: %v", err)
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// --- assertions -------------------------------------------------------------

// toolResult returns the tool_result the model received for a tool call.
func (p *Project) toolResult(id string) fakeanthropic.ToolResult {
	p.t.Helper()
	tr, _, ok := p.Fake.ToolResult(id)
	if !ok {
		p.t.Fatalf("no request carried a tool_result for %s", id)
	}
	return tr
}

// assertBlocked checks that a tool call was refused by a PreToolUse hook (not
// merely failed): is_error, and Claude's hook-error prefix in the text.
func (p *Project) assertBlocked(id string, mention ...string) {
	p.t.Helper()
	tr := p.toolResult(id)
	if !tr.IsError {
		p.t.Errorf("tool_result %s: is_error=false, want a hook block; text: %q", id, tr.Text)
		return
	}
	// A failing command is an error too; only the hook's own words prove
	// the call was blocked before it ran.
	for _, m := range mention {
		if !strings.Contains(strings.ToLower(tr.Text), strings.ToLower(m)) {
			p.t.Errorf("tool_result %s does not mention %q: %q", id, m, tr.Text)
		}
	}
}

func (p *Project) assertNotError(id string) {
	p.t.Helper()
	if tr := p.toolResult(id); tr.IsError {
		p.t.Errorf("tool_result %s: is_error=true, want success; text: %q", id, tr.Text)
	}
}

func (p *Project) assertExists(rel string) {
	p.t.Helper()
	if !p.Exists(rel) {
		p.t.Errorf("%s was deleted or never created", rel)
	}
}
