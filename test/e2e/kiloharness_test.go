package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// Kilo Code CLI (@kilocode/cli on npm) is a fork of OpenCode: it loads the
// same atreides plugin, which starts `atreides serve --stdio --host kilo`.
// The fake model is the same as OpenCode's: a custom
// @ai-sdk/openai-compatible provider in the workspace's kilo.json, pointed
// at fakeopenaichat on loopback.

// kiloProject is a scratch project with a fake model configured for Kilo.
type kiloProject struct {
	*hostProject
	Fake *fakeopenaichat.Server
	bin  string
}

func newKiloProject(t *testing.T, script fakeopenaichat.Script) *kiloProject {
	t.Helper()
	bin := kiloCLI.require(t)
	p := &kiloProject{hostProject: newHostProject(t, atreidesFor(t)), bin: bin}
	p.Fake = fakeopenaichat.Start(t, script)
	p.writeConfig(nil)
	return p
}

// writeConfig writes the workspace's kilo.json: the fake provider, and
// permission when not nil (Kilo's own rules: its bash asks for most
// commands, which only `kilo run --auto` approves).
func (p *kiloProject) writeConfig(permission map[string]any) {
	cfg := map[string]any{
		"model": "fake/fake-model", "small_model": "fake/fake-model",
		"autoupdate": false, "share": "disabled",
		"provider": map[string]any{"fake": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "Fake LLM",
			"options": map[string]any{"baseURL": p.Fake.URL, "apiKey": "sk-fake"},
			"models": map[string]any{"fake-model": map[string]any{"name": "Fake Model", "tool_call": true,
				"limit": map[string]any{"context": 128000, "output": 4096}}},
		}},
	}
	if permission != nil {
		cfg["permission"] = permission
	}
	p.WriteJSON("kilo.json", cfg)
}

func (p *kiloProject) configHome() string { return filepath.Join(p.Home, ".config") }

// env is Kilo's environment: XDG directories in the scratch HOME, no
// update check, no model list fetched, and npm pointed at a closed port
// (its dependency install must be satisfied by the offline marker).
func (p *kiloProject) env() []string {
	return append(p.baseEnv(),
		"XDG_CONFIG_HOME="+p.configHome(),
		"XDG_DATA_HOME="+filepath.Join(p.Home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(p.Home, ".cache"),
		"XDG_STATE_HOME="+filepath.Join(p.Home, ".local", "state"),
		"KILO_DISABLE_AUTOUPDATE=1",
		"KILO_DISABLE_MODELS_FETCH=1",
		"npm_config_registry=http://127.0.0.1:9/",
	)
}

// kiloRunTimeout bounds one `kilo run`: it takes about 20 s alone here
// and over a minute beside another host run on two cores, past the
// harness's runTimeout.
const kiloRunTimeout = 3 * time.Minute

// runKilo runs `kilo run --auto --format json` with the prompt as its
// message (--auto, or a command touching a path outside the workspace is
// auto-rejected and the run fails), in a run slot, bounded by
// kiloRunTimeout, and fails the test unless it exits 0.
func (p *kiloProject) runKilo(prompt string) ([]ocEvent, *hostRun) {
	p.t.Helper()
	runSlots <- struct{}{}
	defer func() { <-runSlots }()
	ctx, cancel := context.WithTimeout(context.Background(), kiloRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.bin, "run", "--auto", "--format", "json", "--print-logs", "--log-level", "INFO", prompt)
	cmd.Dir, cmd.Env, cmd.WaitDelay = p.Dir, p.env(), 5*time.Second
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := &hostRun{Stdout: stdout.String(), Stderr: stderr.String(), Duration: time.Since(start)}
	p.runs++
	p.saveArtifact(fmt.Sprintf("kilo-%d.stdout", p.runs), []byte(res.Stdout))
	p.saveArtifact(fmt.Sprintf("kilo-%d.stderr", p.runs), []byte(res.Stderr))
	p.t.Logf("kilo run: %v in %v, %d model requests", err, res.Duration.Round(time.Millisecond), len(p.Fake.Requests()))
	if err != nil {
		p.t.Fatalf("kilo run: %v (ctx %v)\nstderr:\n%s\nstdout:\n%s\nrequests:\n%s", err, ctx.Err(),
			tail(res.Stderr, 4000), tail(res.Stdout, 3000), p.Fake.Summary())
	}
	return ocEvents(res.Stdout), res
}

// toolResult is what the model was sent for a tool call.
func (p *kiloProject) toolResult(id string) string { return fakeToolResult(p.t, p.Fake, id) }

func (p *kiloProject) exists(rel string) bool {
	_, err := os.Stat(p.Path(rel))
	return err == nil
}

// serveKilo starts `kilo serve` in the project (the interactive mode,
// where a session outlives one prompt, which a continuation at
// session.idle needs) and returns it as OpenCode's HTTP client sees it.
func (p *kiloProject) serveKilo() *ocServer {
	p.t.Helper()
	// ocServer's client needs only the project's directory, fake and test.
	oc := &ocProject{hostProject: p.hostProject, Fake: p.Fake, bin: p.bin}
	return oc.serveAs("kilo", p.env(), "x-kilo-directory")
}
