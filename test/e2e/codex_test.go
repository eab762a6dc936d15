package e2e

import (
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
	// hooked is set once atreides's hooks are installed where Codex runs
	// them: a run must then report hook outcomes.
	hooked bool
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
	p.hooked = true
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
// sandbox and approvals off, so only hooks can stop a command. It runs
// without --json: only the plain output reports each hook's outcome
// ("hook: PreToolUse Failed"), which is how Codex 0.171.0 shows an answer
// it rejected (and then runs the call as if unhooked).
func (p *codexProject) Run(prompt string) *hostRun {
	p.t.Helper()
	env := append(p.baseEnv(), "FAKE_OPENAI_KEY=sk-fake")
	res := p.run("codex", p.bin, env, "exec", "--skip-git-repo-check",
		"--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox", prompt)
	p.t.Logf("codex: %d model requests", len(p.Fake.Main()))
	p.checkHookErrors(res.Stderr)
	return res
}

// checkHookErrors fails the test on any hook Codex reports as failed
// (an answer it could not parse or rejected, a hook that exited with an
// error) and on any rewrite it could not apply: Codex drops such an
// answer and goes on, so a wrong shape would otherwise pass unnoticed.
// With atreides's hooks installed it also wants at least one hook outcome,
// so that a change in how Codex reports them does not silence the check.
func (p *codexProject) checkHookErrors(stderr string) {
	p.t.Helper()
	outcomes := 0
	for line := range strings.Lines(stderr) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "hook: ") && len(strings.Fields(line)) == 3 {
			outcomes++
			if strings.HasSuffix(line, " Failed") {
				p.t.Errorf("codex reported a failed hook: %s", line)
			}
		}
		if strings.Contains(line, "hook returned") || strings.Contains(line, "hook input rewrite") {
			p.t.Errorf("codex rejected a hook's answer: %s", line)
		}
	}
	if p.hooked && outcomes == 0 {
		p.t.Errorf("codex reported no hook outcome (\"hook: <Event> <Outcome>\") on stderr:\n%s", tail(stderr, 2000))
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
		{"RedirectIsDenied", codexRedirectDenied},
		{"AskIsDenied", codexAskDenied},
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
// first request. Codex loads the project's AGENTS.md itself, so the
// session start carries no copy of it (issue 35): its text is in the
// request once, Codex's own.
func codexSessionContext(t *testing.T) {
	const rules = "CODEX-ROOT-RULES-MARK"
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{fo.Text("Hello.")}})
	p.WriteFile("AGENTS.md", "# Rules\n- "+rules+"\n")
	p.writeCodexHooks()
	p.Run("say hello")

	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no model request reached the fake")
	}
	if got := main[0].MessagesContaining("developer", sessionMarker); len(got) != 1 {
		t.Errorf("first request has %d developer messages with %q, want 1", len(got), sessionMarker)
	} else if strings.Contains(got[0], rules) {
		t.Errorf("the session start repeats AGENTS.md, which Codex loads itself: %q", got[0])
	}
	if n := strings.Count(string(main[0].Raw), rules); n != 1 {
		t.Errorf("AGENTS.md's text is in the first request %d times, want once (Codex's own)", n)
	}
}

// With an open todo of the session (its agent adds it: Codex names no
// session, so the command acts for the project's most recent one, this
// session; docs/work-items.md), Stop blocks once: Codex adds atreides's
// reason as a <hook_prompt> user message and runs another turn; the
// second Stop (stop_hook_active=true) lets it end.
func codexStopTodos(t *testing.T) {
	const todo = "write the report"
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{
		fo.Exec(atreidesFor(t) + " todo add '" + todo + "'"),
		fo.Text("All finished."),
		fo.Text("Noted the open todo; stopping now."),
	}})
	p.writeCodexHooks()
	p.Run("do the work")

	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d model requests, want 3 (the todo added, then Stop blocks exactly once)", len(main))
	}
	if out := p.Atreides("todo", "list"); !strings.Contains(out, todo+"\ttask, session ") {
		t.Errorf("the agent's todo is not on its session's checklist:\n%s", out)
	}
	prompts := main[2].MessagesContaining("user", "<hook_prompt")
	if len(prompts) != 1 || !strings.Contains(prompts[0], todo) {
		t.Errorf("second request's hook prompts %q, want one naming %q", prompts, todo)
	}
}

// A delegation redirect is a rewrite of spawn_agent's input, which a
// Codex 0.171.0 hook cannot make (it rewrites only a shell command's): the
// call is denied instead, and the model is told the input to call with.
// Codex hooks spawn_agent (namespace multi_agent_v1) with the call's
// arguments as tool_input; the deny comes before Codex runs the call. The
// call made again with that input runs: Codex starts a worker and answers
// with its agent_id. (The fake's script then replays in the subagent,
// where Codex refuses a nested spawn_agent on its own.)
func codexRedirectDenied(t *testing.T) {
	spawn := func(agent string) fo.Step {
		return fo.Step{Call: &fo.Call{Name: "spawn_agent", Namespace: "multi_agent_v1",
			Arguments: map[string]any{"agent_type": agent, "message": "look around"}}}
	}
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{spawn("helper"), spawn("worker"), fo.Text("Done.")}})
	p.WriteFile(".atreides/config.yaml", "delegation:\n  redirect: { helper: worker }\n")
	p.writeCodexHooks()
	p.Run("delegate the survey")

	out := p.callOutput(0)
	if !strings.Contains(out, "blocked by PreToolUse hook") || !strings.Contains(out, "Make the call again with this input") ||
		!strings.Contains(out, `"agent_type":"worker"`) {
		t.Errorf("call output is not atreides's redirect deny: %q", out)
	}
	if again := p.callOutput(1); !strings.Contains(again, `"agent_id"`) {
		t.Errorf("the call made again with the given input did not start the agent: %q", again)
	}
}

// An ask (here `rm -rf ./*`, which the guard puts to the user) is a deny
// on Codex, which rejects "ask": the model is told to ask the user, and
// the files stay.
func codexAskDenied(t *testing.T) {
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{
		fo.Exec("rm -rf ./*"),
		fo.Text("I will ask the user."),
	}})
	p.WriteFile("keep.txt", "keep me\n")
	p.writeCodexHooks()
	p.Run("empty the project")

	out := p.callOutput(0)
	if !strings.Contains(out, "blocked by PreToolUse hook") || !strings.Contains(out, "a Codex hook cannot ask") {
		t.Errorf("call output is not atreides's ask-as-deny: %q", out)
	}
	p.assertExists("keep.txt")
}
