package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// OpenCode (opencode-ai on npm) runs the atreides plugin in its own Bun
// runtime; the plugin starts `atreides serve --stdio`. The fake model is a
// custom @ai-sdk/openai-compatible provider (bundled in the binary, nothing
// downloaded) pointed at fakeopenaichat on loopback.
//
//	ATREIDES_OPENCODE_BIN  opencode CLI to use (default test/e2e/hosts/node_modules/.bin/opencode)

const opencodePinned = "1.18.33"

var opencodeCLI = &hostCLI{name: "opencode", envVar: "ATREIDES_OPENCODE_BIN", pinned: opencodePinned,
	version: func(out string) string { return lastLine(out) }}

// ocProject is a scratch project with the atreides plugin installed and a
// fake model configured.
type ocProject struct {
	*hostProject
	Fake *fakeopenaichat.Server
	bin  string
	// name is the host's command ("opencode", or a fork's: "kilo"): the
	// prefix of its environment switches and of its serve log.
	name string
}

func newOCProject(t *testing.T, script fakeopenaichat.Script) *ocProject {
	t.Helper()
	bin := opencodeCLI.require(t)
	p := &ocProject{hostProject: newHostProject(t, atreidesFor(t)), bin: bin, name: "opencode"}
	p.Fake = fakeopenaichat.Start(t, script)
	cfg := fakeModelConfig(p.Fake.URL)
	cfg["$schema"] = "https://opencode.ai/config.json"
	p.WriteJSON("opencode.json", cfg)
	p.requireServe()
	// The plugin file, and OpenCode's dependency install marked as done in
	// both config dirs (the project's and ~/.config/opencode) so the start
	// does not wait ~70 s for a registry: the test points npm at a closed
	// port.
	t.Logf("install: %s", p.Atreides("install", "opencode", "--project", "--offline"))
	if _, err := os.Stat(p.Path(".opencode/plugin/" + opencode.PluginFile)); err != nil {
		t.Fatalf("install opencode wrote no plugin: %v", err)
	}
	return p
}

// fakeModelConfig is the part of an OpenCode (or fork's) config that
// makes the fake at url the model: a custom @ai-sdk/openai-compatible
// provider, no update, no share.
func fakeModelConfig(url string) map[string]any {
	return map[string]any{
		"model": "fake/fake-model", "small_model": "fake/fake-model",
		"autoupdate": false, "share": "disabled",
		"provider": map[string]any{"fake": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "Fake LLM",
			"options": map[string]any{"baseURL": url, "apiKey": "sk-fake"},
			"models": map[string]any{"fake-model": map[string]any{"name": "Fake Model", "tool_call": true,
				"limit": map[string]any{"context": 128000, "output": 4096}}},
		}},
	}
}

func (p *ocProject) configHome() string { return filepath.Join(p.Home, ".config") }

// requireServe fails fast when the binary has no serve command (not yet
// wired into the CLI).
func (p *ocProject) requireServe() {
	p.t.Helper()
	cmd := boundedCommand(p.t, p.atreides, "serve", "--stdio")
	cmd.Stdin = strings.NewReader(`{"v":1,"id":1,"method":"hello"}` + "\n")
	out, err := cmd.Output()
	if err != nil || !bytes.Contains(out, []byte(`"protocol":1`)) {
		p.t.Fatalf("atreides serve --stdio does not answer hello (is serve wired into commands()?): %v %s", err, out)
	}
}

// env is the host's environment: XDG directories in the scratch HOME, no
// update check, no model list fetched, and npm pointed at a closed port.
func (p *ocProject) env() []string {
	prefix := strings.ToUpper(p.name)
	return append(p.baseEnv(),
		"XDG_CONFIG_HOME="+p.configHome(),
		"XDG_DATA_HOME="+filepath.Join(p.Home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(p.Home, ".cache"),
		"XDG_STATE_HOME="+filepath.Join(p.Home, ".local", "state"),
		prefix+"_DISABLE_AUTOUPDATE=1",
		prefix+"_DISABLE_MODELS_FETCH=1",
		// Never reach a registry: the host's own dependency install must be
		// satisfied by the offline marker, or the run would wait ~70 s.
		"npm_config_registry=http://127.0.0.1:9/",
	)
}

// ocEvent is one line of `opencode run --format json`.
type ocEvent struct {
	Type string `json:"type"`
	Part struct {
		Tool   string `json:"tool"`
		CallID string `json:"callID"`
		State  struct {
			Status string `json:"status"`
			Output string `json:"output"`
			Error  string `json:"error"`
		} `json:"state"`
		Text string `json:"text"`
	} `json:"part"`
}

// runOC runs `opencode run --format json` with the prompt on stdin and
// any further arguments (`--command name` and its arguments) after it.
func (p *ocProject) runOC(prompt string, args ...string) ([]ocEvent, *hostRun) {
	p.t.Helper()
	runSlots <- struct{}{}
	defer func() { <-runSlots }()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.bin, append([]string{"run", "--format", "json", "--print-logs", "--log-level", "INFO"}, args...)...)
	cmd.Dir = p.Dir
	cmd.Env = p.env()
	cmd.Stdin = strings.NewReader(prompt)
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
		p.t.Fatalf("running opencode: %v", err)
	}
	p.runs++
	p.saveArtifact(fmt.Sprintf("opencode-%d.stdout", p.runs), []byte(res.Stdout))
	p.saveArtifact(fmt.Sprintf("opencode-%d.stderr", p.runs), []byte(res.Stderr))
	p.t.Logf("opencode run: exit=%d in %v, %d model requests", res.ExitCode, res.Duration.Round(time.Millisecond), len(p.Fake.Requests()))
	if ctx.Err() != nil || res.ExitCode != 0 {
		p.t.Fatalf("opencode exit %d (ctx %v)\nstderr:\n%s\nstdout:\n%s\nrequests:\n%s", res.ExitCode, ctx.Err(),
			tail(res.Stderr, 4000), tail(res.Stdout, 3000), p.Fake.Summary())
	}
	return ocEvents(res.Stdout), res
}

// ocEvents are the JSON events `run --format json` printed (OpenCode's,
// and its forks').
func ocEvents(stdout string) []ocEvent {
	var evs []ocEvent
	for _, line := range strings.Split(stdout, "\n") {
		var e ocEvent
		if json.Unmarshal([]byte(line), &e) == nil && e.Type != "" {
			evs = append(evs, e)
		}
	}
	return evs
}

// toolResult is what the model was sent for a tool call (in the first
// request that carries it).
func (p *ocProject) toolResult(id string) string { return fakeToolResult(p.t, p.Fake, id) }

// fakeToolResult is what the fake chat model was sent for a tool call, in
// the first request that carries it; the test fails without one.
func fakeToolResult(t *testing.T, fake *fakeopenaichat.Server, id string) string {
	t.Helper()
	for _, r := range fake.Requests() {
		if s, ok := r.ToolResult(id); ok {
			return s
		}
	}
	t.Fatalf("no request carried the result of %s\n%s", id, fake.Summary())
	return ""
}

func countToolResults(r *fakeopenaichat.Request) int {
	n := 0
	for _, m := range r.Messages {
		if m.Role == "tool" {
			n++
		}
	}
	return n
}

func (p *ocProject) exists(rel string) bool {
	_, err := os.Stat(p.Path(rel))
	return err == nil
}

// ocServer is a running `opencode serve` in the project: the interactive
// mode (TUI, IDE clients) where a session outlives one prompt, which is
// what a continuation on session.idle needs (`opencode run` exits at the
// first idle).
type ocServer struct {
	p   *ocProject
	url string
}

// serveOC starts `<name> serve` (OpenCode's, or a fork's that speaks its
// API: Kilo Code) in the project, and returns it once healthy.
func (p *ocProject) serveOC() *ocServer {
	name := p.name
	p.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		p.t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	runSlots <- struct{}{}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, p.bin, "serve", "--hostname", "127.0.0.1", "--port", fmt.Sprint(port), "--print-logs", "--log-level", "INFO")
	cmd.Dir = p.Dir
	cmd.Env = p.env()
	var stderr safeBuffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	cmd.WaitDelay = 5 * time.Second
	// A launcher (Kilo's bin/kilo is a node script) starts the server as a
	// child of its own: the whole process group goes, or the server
	// outlives the test.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Start(); err != nil {
		<-runSlots
		cancel()
		p.t.Fatalf("%s serve: %v", name, err)
	}
	p.t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		<-runSlots
		p.saveArtifact(name+"-serve.log", []byte(stderr.String()))
	})
	s := &ocServer{p: p, url: fmt.Sprintf("http://127.0.0.1:%d", port)}
	// An early request to a booting server can hang: poll with a timeout.
	deadline := time.Now().Add(60 * time.Second)
	for {
		var h map[string]any
		if s.do("GET", "/global/health", nil, &h, 2*time.Second) == nil && h["healthy"] == true {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s serve not healthy after 60 s\n%s", name, tail(stderr.String(), 3000))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (s *ocServer) do(method, path string, body, out any, timeout time.Duration) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	// x-opencode-directory, or a fork's own (x-kilo-directory).
	req.Header.Set("x-"+s.p.name+"-directory", s.p.Dir)
	resp, err := (&http.Client{Timeout: timeout}).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, data)
	}
	if out != nil && len(data) > 0 {
		return json.Unmarshal(data, out)
	}
	return nil
}

// newSession creates a session and returns its id, which is the one
// atreides's plugin names it by: a test can give it a todo before its
// first prompt.
func (s *ocServer) newSession() string {
	s.p.t.Helper()
	var sess struct {
		ID string `json:"id"`
	}
	if err := s.do("POST", "/session", map[string]any{}, &sess, 30*time.Second); err != nil || sess.ID == "" {
		s.p.t.Fatalf("create session: %v", err)
	}
	return sess.ID
}

// promptIn sends text to session id without waiting for the answer.
func (s *ocServer) promptIn(id, text string) {
	s.p.t.Helper()
	body := map[string]any{"parts": []any{map[string]any{"type": "text", "text": text}}}
	if err := s.do("POST", "/session/"+id+"/prompt_async", body, nil, 30*time.Second); err != nil {
		s.p.t.Fatalf("prompt: %v", err)
	}
}

// waitQuiet waits until no session is busy and the fake model has had no
// request for quiet, or fails after max.
func (s *ocServer) waitQuiet(quiet, max time.Duration) {
	s.p.t.Helper()
	deadline := time.Now().Add(max)
	lastN, lastChange := -1, time.Now()
	for time.Now().Before(deadline) {
		n := len(s.p.Fake.Requests())
		if n != lastN {
			lastN, lastChange = n, time.Now()
		}
		var status map[string]any
		err := s.do("GET", "/session/status", nil, &status, 5*time.Second)
		if err == nil && len(status) == 0 && n > 0 && time.Since(lastChange) >= quiet {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	s.p.t.Fatalf("sessions still busy after %v\n%s", max, s.p.Fake.Summary())
}

// safeBuffer is a strings.Builder safe for a process's two streams.
type safeBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *safeBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *safeBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
