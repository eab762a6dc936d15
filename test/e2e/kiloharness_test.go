package e2e

import (
	"testing"
	"time"

	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// Kilo Code CLI (@kilocode/cli on npm) is a fork of OpenCode: it loads the
// same atreides plugin, which starts `atreides serve --stdio --host kilo`.
// The fake model is the same as OpenCode's: a custom
// @ai-sdk/openai-compatible provider in the workspace's kilo.json, pointed
// at fakeopenaichat on loopback.

// kiloProject is a scratch project with a fake model configured for Kilo:
// OpenCode's, under Kilo's names (kilo.json, KILO_* switches,
// x-kilo-directory).
type kiloProject struct {
	*ocProject
}

func newKiloProject(t *testing.T, script fakeopenaichat.Script) *kiloProject {
	t.Helper()
	bin := kiloCLI.require(t)
	p := &kiloProject{&ocProject{hostProject: newHostProject(t, atreidesFor(t)), bin: bin, name: "kilo"}}
	p.timeout = kiloRunTimeout
	p.Fake = fakeopenaichat.Start(t, script)
	p.writeConfig(nil)
	return p
}

// writeConfig writes the workspace's kilo.json: the fake provider, and
// permission when not nil (Kilo's own rules: its bash asks for most
// commands, which only `kilo run --auto` approves).
func (p *kiloProject) writeConfig(permission map[string]any) {
	cfg := fakeModelConfig(p.Fake.URL)
	if permission != nil {
		cfg["permission"] = permission
	}
	p.WriteJSON("kilo.json", cfg)
}

// kiloRunTimeout bounds one `kilo run`: it takes about 20 s alone here
// and over a minute beside another host run on two cores, past the
// harness's runTimeout.
const kiloRunTimeout = 3 * time.Minute

// runKilo runs `kilo run --auto --format json` with the prompt as its
// message (--auto, or a command touching a path outside the workspace is
// auto-rejected and the run fails), bounded by kiloRunTimeout, and fails
// the test unless it exits 0.
func (p *kiloProject) runKilo(prompt string) ([]ocEvent, *hostRun) {
	p.t.Helper()
	res := p.run("kilo", p.bin, p.env(), "run", "--auto", "--format", "json", "--print-logs", "--log-level", "INFO", prompt)
	return ocEvents(res.Stdout), res
}

// serveKilo starts `kilo serve` in the project (the interactive mode,
// where a session outlives one prompt, which a continuation at
// session.idle needs) and returns it as OpenCode's HTTP client sees it.
func (p *kiloProject) serveKilo() *ocServer { return p.serveOC() }
