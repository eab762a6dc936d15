package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
)

// codexProject is a scratch project driven by the real Codex CLI against
// the fake OpenAI Responses API.
type codexProject struct {
	*hostProject
	Fake *fo.Server
	bin  string
}

func newCodexProject(t *testing.T, script fo.Script) *codexProject {
	t.Helper()
	bin := codexCLI.require(t)
	p := &codexProject{hostProject: newHostProject(t, atreidesFor(t)), Fake: fo.Start(t, script), bin: bin}
	// A custom provider pointed at the fake; the key comes from the env.
	p.WriteFile("../home/.codex/config.toml", fmt.Sprintf(`model = "gpt-fake"
model_provider = "fake"

[model_providers.fake]
name = "fake"
base_url = %q
env_key = "FAKE_OPENAI_KEY"
wire_api = "responses"
`, p.Fake.URL))
	t.Cleanup(func() {
		for _, r := range p.Fake.RequestsOf(fo.KindNotFound) {
			t.Errorf("codex called an endpoint the fake does not serve: %s %s", r.Method, r.Path)
		}
		if t.Failed() {
			t.Logf("fake openai requests:\n%s", p.Fake.Summary())
		}
		if path := p.artifactPath("requests.jsonl"); path != "" {
			if err := p.Fake.WriteJSONL(path); err != nil {
				t.Logf("artifacts: %v", err)
			}
		}
	})
	return p
}

// codexEvents are the Codex events `atreides install codex` registers:
// every event the codex adapter handles.
var codexEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "Stop", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd"}

// writeCodexHooks runs `atreides install codex --user` and checks the
// $HOME/.codex/hooks.json it writes (next to the config.toml the project
// made, to which install only appends its MCP server). User-level hooks need no project
// trust; Codex still skips them in `exec` unless the run passes
// --dangerously-bypass-hook-trust (Run does), which install's notes say.
func (p *codexProject) writeCodexHooks() {
	p.t.Helper()
	config, err := os.ReadFile(p.Path("../home/.codex/config.toml"))
	if err != nil {
		p.t.Fatal(err)
	}
	out := p.Atreides("install", "codex", "--user", "--json")
	if !strings.Contains(out, "dangerously-bypass-hook-trust") || !strings.Contains(out, "/hooks") {
		p.t.Errorf("install codex does not say how to trust the hooks:\n%s", out)
	}
	matchers, handlers := p.installedHooks("../home/.codex/hooks.json", "codex", codexEvents, "codex", "--user")
	for ev, h := range handlers {
		want := 10
		if ev == "SessionEnd" {
			want = 3 // Codex caps SessionEnd hooks at 3 s
		}
		if h.Timeout != want {
			p.t.Errorf("%s timeout %d s, want %d", ev, h.Timeout, want)
		}
	}
	if m := matchers["PreToolUse"]; !strings.Contains(m, "Bash") || !strings.Contains(m, "apply_patch") || !strings.Contains(m, "mcp__") {
		p.t.Errorf("PreToolUse matcher %q misses a judged tool", m)
	}
	if after, err := os.ReadFile(p.Path("../home/.codex/config.toml")); err != nil || !strings.HasPrefix(string(after), string(config)) || !strings.HasPrefix(string(after[len(config):]), "\n[mcp_servers.atreides]\n") {
		p.t.Errorf("install codex changed config.toml beyond appending its MCP server:\n%s", after)
	}
}

// Run runs `codex exec prompt` headless with hooks trusted and Codex's own
// sandbox and approvals off, so only hooks can stop a command.
func (p *codexProject) Run(prompt string) *hostRun {
	p.t.Helper()
	env := append(p.baseEnv(), "FAKE_OPENAI_KEY=sk-fake")
	res := p.run("codex", p.bin, env, "exec", "--skip-git-repo-check", "--json",
		"--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox", prompt)
	p.t.Logf("codex: %d model requests", len(p.Fake.Main()))
	p.checkHookErrors(res.Stdout)
	return res
}

// checkHookErrors fails the test on any error item Codex printed about a
// hook (an answer it rejected, a hook that failed), other than the warning
// the trust bypass always prints: Codex drops a rejected answer and goes
// on, so a wrong shape would otherwise pass unnoticed.
func (p *codexProject) checkHookErrors(stdout string) {
	p.t.Helper()
	for line := range strings.Lines(stdout) {
		var ev struct {
			Type string `json:"type"`
			Item struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"item"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil || ev.Item.Type != "error" {
			continue
		}
		msg := strings.ToLower(ev.Item.Message)
		if strings.Contains(msg, "hook") && !strings.Contains(msg, "dangerously-bypass-hook-trust") {
			p.t.Errorf("codex reported a hook problem: %s", ev.Item.Message)
		}
	}
}

// callOutput is what the model was told about step n's call.
func (p *codexProject) callOutput(step int) string {
	p.t.Helper()
	out, ok := p.Fake.CallOutput(fo.CallID(step))
	if !ok {
		p.t.Fatalf("no request carried the output of %s", fo.CallID(step))
	}
	return out
}

// TestCodex runs the Codex CLI scenarios with atreides as the hook handler
// of every event it handles.
func TestCodex(t *testing.T) {
	codexCLI.require(t)
	for _, sc := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"DeniedCommand", codexDenied},
		{"AllowedCommand", codexAllowed},
		{"SessionStartContext", codexSessionContext},
		{"StopBlocksOnceForTodos", codexStopTodos},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			sc.fn(t)
		})
	}
}

// `rm -rf ~/victim` is refused by PreToolUse: the model gets "Command
// blocked by PreToolUse hook: <atreides's reason>" and victim/ in the
// (throwaway) HOME survives. (Codex would also refuse an rm -f style
// command on its own, after the hook: the assertion on the hook's words
// tells the two apart.)
func codexDenied(t *testing.T) {
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{
		fo.Exec("rm -rf ~/victim"),
		fo.Text("I could not delete it."),
	}})
	p.Victim("../home/victim")
	p.writeCodexHooks()
	p.Run("please delete the victim directory")

	out := p.callOutput(0)
	if !strings.Contains(out, "blocked by PreToolUse hook") || !strings.Contains(out, "atreides blocked this") {
		t.Errorf("call output is not atreides's block: %q", out)
	}
	p.assertExists("../home/victim/precious.txt")
}

// Harmless commands run: their files appear.
func codexAllowed(t *testing.T) {
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{
		fo.Exec("echo hello > out.txt"),
		fo.Exec("touch made-by-codex"),
		fo.Text("Both files written."),
	}})
	p.writeCodexHooks()
	p.Run("write out.txt and made-by-codex")

	for step := range 2 {
		if out := p.callOutput(step); strings.Contains(out, "blocked") {
			t.Errorf("step %d was blocked: %q", step, out)
		}
	}
	if b, err := os.ReadFile(p.Path("out.txt")); err != nil || strings.TrimSpace(string(b)) != "hello" {
		t.Errorf("out.txt = %q, %v; want hello", b, err)
	}
	p.assertExists("made-by-codex")
}

// SessionStart context reaches the model as a developer message in the
// first request.
func codexSessionContext(t *testing.T) {
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{fo.Text("Hello.")}})
	p.writeCodexHooks()
	p.Run("say hello")

	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no model request reached the fake")
	}
	if got := main[0].MessagesContaining("developer", sessionMarker); len(got) != 1 {
		t.Errorf("first request has %d developer messages with %q, want 1", len(got), sessionMarker)
	}
}

// With an open todo, Stop blocks once: Codex adds atreides's reason as a
// <hook_prompt> user message and runs another turn; the second Stop
// (stop_hook_active=true) lets it end.
func codexStopTodos(t *testing.T) {
	const todo = "write the report"
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{
		fo.Text("All finished."),
		fo.Text("Noted the open todo; stopping now."),
	}})
	p.writeCodexHooks()
	p.Atreides("todo", "add", todo)
	p.Run("do the work")

	main := p.Fake.Main()
	if len(main) != 2 {
		t.Fatalf("got %d model requests, want 2 (Stop should block exactly once)", len(main))
	}
	prompts := main[1].MessagesContaining("user", "<hook_prompt")
	if len(prompts) != 1 || !strings.Contains(prompts[0], todo) {
		t.Errorf("second request's hook prompts %q, want one naming %q", prompts, todo)
	}
}
