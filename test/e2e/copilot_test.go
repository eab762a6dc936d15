package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/agenttools"
	"github.com/atreides-dev/atreides/internal/install/installtest"
	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// copilotProject is a scratch project driven by the real GitHub Copilot
// CLI (copilot -p) against the fake Anthropic Messages API, through
// Copilot's own provider settings (COPILOT_PROVIDER_*), offline.
type copilotProject struct {
	*hostProject
	Fake *fa.Server
	bin  string
}

func newCopilotProject(t *testing.T, script fa.Script) *copilotProject {
	t.Helper()
	return newCopilotProjectFor(t, func(*hostProject) fa.Script { return script })
}

// newCopilotProjectFor is newCopilotProject with a script that names the
// scratch project's paths (Copilot's file tools take absolute paths).
func newCopilotProjectFor(t *testing.T, script func(*hostProject) fa.Script) *copilotProject {
	t.Helper()
	bin := copilotCLI.require(t)
	hp := newHostProject(t, atreidesFor(t))
	p := &copilotProject{hostProject: hp, Fake: fa.Start(t, script(hp)), bin: bin}
	t.Cleanup(func() {
		for _, r := range p.Fake.RequestsOf(fa.KindNotFound) {
			t.Errorf("copilot called an endpoint the fake does not serve: %s %s", r.Method, r.Path)
		}
		if t.Failed() {
			t.Logf("fake anthropic requests:\n%s", p.Fake.Summary())
		}
		if path := p.artifactPath("requests.jsonl"); path != "" {
			if err := p.Fake.WriteJSONL(path); err != nil {
				t.Logf("artifacts: %v", err)
			}
		}
	})
	return p
}

// copilotEvents are the events `atreides install copilot` registers.
var copilotEvents = []string{"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "postToolUseFailure", "agentStop", "subagentStart", "subagentStop", "sessionEnd"}

// copilotCache is where Copilot unpacks its 235 MB of JavaScript on its
// first start ($XDG_CACHE_HOME/copilot): shared by the scenarios, so that
// each throwaway HOME does not unpack it again.
func copilotCache(t *testing.T) string {
	dir := filepath.Join(repoRoot, "test", "e2e", ".scratch", "copilot-cache")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// install runs `atreides install copilot` with args and checks the hooks
// file it writes (rel, relative to the project) as installedHooks does:
// every event has one group, here without a matcher (Copilot's "" and "*"
// match no tool), holding one command handler that names its event and
// carries the timeout.
func (p *copilotProject) install(rel string, args ...string) {
	p.t.Helper()
	matchers, handlers := p.installedHooks(rel, "copilot", copilotEvents, append([]string{"copilot"}, args...)...)
	if len(matchers) != 0 {
		p.t.Fatalf("%s: matchers %v, want none", rel, matchers)
	}
	for ev, h := range handlers {
		if h.Timeout != 10 {
			p.t.Errorf("%s: %s handler %+v, want a timeout of 10", rel, ev, h)
		}
	}
}

// Run runs `copilot -p prompt --allow-all-tools` (so that only hooks can
// stop a tool) with extra environment, and fails the test unless it
// exits 0.
func (p *copilotProject) Run(prompt string, extra ...string) *hostRun {
	p.t.Helper()
	env := append(p.baseEnv(),
		"XDG_CACHE_HOME="+copilotCache(p.t),
		"COPILOT_OFFLINE=true", "COPILOT_AUTO_UPDATE=false",
		"COPILOT_PROVIDER_TYPE=anthropic", "COPILOT_PROVIDER_BASE_URL="+p.Fake.URL,
		"COPILOT_PROVIDER_API_KEY=sk-ant-fake", "COPILOT_MODEL=claude-sonnet-4.5",
	)
	res := p.run("copilot", p.bin, append(env, extra...), "-p", prompt, "--allow-all-tools")
	p.t.Logf("copilot: %d model requests", len(p.Fake.Main()))
	return res
}

// result is what the model was sent back for the i-th tool call of step.
func (p *copilotProject) result(step int) string {
	p.t.Helper()
	tr, _, ok := p.Fake.ToolResult(fa.ToolID("main", step, 0))
	if !ok {
		p.t.Fatalf("the model was sent no result for its call in step %d", step)
	}
	return tr.Text
}

func copilotShell(cmd string) fa.ToolUse {
	return fa.ToolUse{Name: "bash", Input: map[string]any{"command": cmd, "description": "scripted by the fake model"}}
}

// TestCopilot runs the Copilot CLI scenarios with atreides installed for
// the user (~/.copilot/hooks/atreides.json, which -p always loads), one
// run at a time.
func TestCopilot(t *testing.T) {
	copilotCLI.require(t)
	for _, sc := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"AllowedCommand", copilotAllowed},
		{"DeniedCommand", copilotDenied},
		{"AskIsRefusedWithTheReason", copilotAsk},
		{"SecretReads", copilotSecrets},
		{"SessionStartContext", copilotSessionContext},
		{"AgentStopKeepsGoingOnceForTodos", copilotStopTodos},
		{"ProjectHooksNeedTrustInPrintMode", copilotProjectScope},
		{"NestedRules", copilotNestedRules},
		{"OutputCut", copilotOutputCut},
		{"MCPToolsAndAgents", copilotMCPAndAgents},
		{"InstallUninstallRoundTrip", copilotRoundTrip},
	} {
		t.Run(sc.name, sc.fn)
	}
}

// A harmless command runs, its file appears, and its result is no denial.
func copilotAllowed(t *testing.T) {
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(copilotShell("echo hello > out.txt")),
		fa.Text("Written."),
	}})
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("write out.txt")
	if r := p.result(0); strings.Contains(r, "Denied") {
		t.Errorf("the harmless command was denied: %q", r)
	}
	if b, err := os.ReadFile(p.Path("out.txt")); err != nil || strings.TrimSpace(string(b)) != "hello" {
		t.Errorf("out.txt = %q, %v; want hello", b, err)
	}
}

// `rm -rf ~/victim` is refused: the model reads "Denied by preToolUse
// hook: <atreides's reason>" and the directory survives. The target is
// outside the project because the default policy allows recursive deletes
// inside it.
func copilotDenied(t *testing.T) {
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(copilotShell("rm -rf ~/victim")),
		fa.Text("I could not delete it."),
	}})
	p.Victim("../home/victim")
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("delete the victim directory")
	if r := p.result(0); !strings.HasPrefix(r, "Denied by preToolUse hook: ") || !strings.Contains(r, "atreides blocked this") {
		t.Errorf("the model was not told atreides's reason: %q", r)
	}
	p.assertExists("../home/victim/precious.txt")
}

// An Ask is sent as Copilot's own "ask": in -p nobody can answer, so
// Copilot refuses the call and shows the model the reason.
func copilotAsk(t *testing.T) {
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(copilotShell("echo export X=1 >> ~/.bashrc")),
		fa.Text("I did not change it."),
	}})
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("add X to my shell profile")
	if r := p.result(0); !strings.HasPrefix(r, "Denied by preToolUse hook (unable to ask user for confirmation): ") || !strings.Contains(r, "fs.write-startup") {
		t.Errorf("the ask did not reach the model as Copilot's refusal: %q", r)
	}
	if _, err := os.Stat(p.Path("../home/.bashrc")); err == nil {
		t.Error("the asked-about command ran")
	}
}

// Reading a secret is refused, through the shell and through the view
// tool, and its content never reaches the model.
func copilotSecrets(t *testing.T) {
	const secret = "sk-live-do-not-leak"
	p := newCopilotProjectFor(t, func(hp *hostProject) fa.Script {
		return fa.Script{Steps: []fa.Step{
			fa.Call(copilotShell("cat .env")),
			fa.Call(fa.ToolUse{Name: "view", Input: map[string]any{"path": filepath.Join(hp.Home, ".ssh", "id_rsa")}}),
			fa.Text("I did not read them."),
		}}
	})
	p.WriteFile(".env", "API_KEY="+secret+"\n")
	p.WriteFile("../home/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n"+secret+"\n")
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("show me the keys")
	for step := range 2 {
		if r := p.result(step); !strings.HasPrefix(r, "Denied by preToolUse hook: ") || !strings.Contains(r, "secret") {
			t.Errorf("step %d: the read was not refused as a secret's: %q", step, r)
		}
	}
	for _, r := range p.Fake.Main() {
		if r.Contains(secret) {
			t.Fatalf("request #%d carries the secret", r.Seq)
		}
	}
}

// The session start context reaches the model in its first request.
func copilotSessionContext(t *testing.T) {
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{fa.Text("Hello.")}})
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("say hello")
	main := p.Fake.Main()
	if len(main) == 0 || !main[0].Contains("atreides:session") {
		t.Fatalf("the first model request does not carry atreides's session context")
	}
}

// With an open todo of the session (its agent adds it; Copilot names the
// session in its shell's environment: docs/work-items.md), agentStop
// blocks once: Copilot sends atreides's reason (naming the todo) as the
// next user message, and at the following stop (stop_hook_active)
// atreides lets the agent stop.
func copilotStopTodos(t *testing.T) {
	const todo = "write the report"
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(copilotShell(atreidesFor(t) + " todo add '" + todo + "'")),
		fa.Text("All finished."),
		fa.Text("Noted the open todo; stopping now."),
	}})
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("do the work")
	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d model requests, want 3 (the todo added, one more turn, then the end)", len(main))
	}
	if out := p.Atreides("todo", "list"); !strings.Contains(out, todo+"\ttask, session ") {
		t.Errorf("the agent's todo is not on its session's checklist:\n%s", out)
	}
	if last := main[2].LastUserText(); !strings.Contains(last, todo) || !strings.Contains(last, "still open") {
		t.Errorf("the second turn's user message is not atreides's todo reminder: %q", last)
	}
}

// Hooks in the project's .github/hooks run in copilot -p only when the
// folder is trusted for it: without GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS
// (or --trust-folder, COPILOT_ALLOW_ALL=true) no session context arrives;
// with it, it does. Install says so.
func copilotProjectScope(t *testing.T) {
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{fa.Text("Hello.")}})
	out := p.Atreides("install", "copilot", "--project")
	if !strings.Contains(out, "--trust-folder") {
		t.Errorf("install --project does not say how copilot -p runs the project's hooks:\n%s", out)
	}
	p.install(".github/hooks/atreides.json", "--project")
	p.Run("say hello")
	if main := p.Fake.Main(); len(main) == 0 || main[0].Contains("atreides:session") {
		t.Fatalf("project hooks ran in -p without trust (or no request)")
	}
	p.Run("say hello", "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true")
	main := p.Fake.Main()
	if !main[len(main)-1].Contains("atreides:session") {
		t.Errorf("project hooks did not run with GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true")
	}
}

// Copilot puts the root's AGENTS.md in its system prompt and, after a
// view, the AGENTS.md of each directory above the file ("Custom
// instructions from pkg/a/AGENTS.md"), so atreides adds none of those: it
// brings the Cursor rule for *.go with the view's result (postToolUse's
// additionalContext), once; the SQL rule never comes.
func copilotNestedRules(t *testing.T) {
	p := newCopilotProjectFor(t, func(hp *hostProject) fa.Script {
		view := func(rel string) fa.Step {
			return fa.Call(fa.ToolUse{Name: "view", Input: map[string]any{"path": hp.Path(rel)}})
		}
		return fa.Script{Steps: []fa.Step{view("pkg/a/x.go"), view("pkg/a/y.go"), fa.Text("done")}}
	})
	writeRulesProject(p.hostProject)
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("read the package")
	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d model requests, want 3", len(main))
	}
	if main[0].Contains("PKG-RULE-MARK") || !main[0].Contains("ROOT-RULE-MARK") {
		t.Error("the first request should carry the root's AGENTS.md (Copilot's own) and no nested rule")
	}
	for i, r := range main[1:] {
		// Copilot's own reminders follow the result, innermost first.
		for m, n := range rulesMarks(r.AllText(), "PKG-RULE-MARK", "PKGA-RULE-MARK", "CURSOR-GO-MARK") {
			if n != 1 {
				t.Errorf("request %d: %s appears %d times, want once", i+2, m, n)
			}
		}
		if r.Contains("added by atreides):\nPKG") || r.Contains("SQL-RULE-MARK") {
			t.Errorf("request %d: atreides injected a rule Copilot brings itself, or the SQL rule for a Go file", i+2)
		}
	}
}

// A shell output longer than output.shell (16000) reaches the model cut,
// with atreides's note and the whole output saved under .atreides/outputs:
// postToolUse's modifiedResult replaces what the model is shown. Copilot
// saves an output of about 20 KB or more to a file itself and shows the
// model a preview (measured: 16.4 KB came whole, 23.3 KB as a preview), so
// the output here is 18.9 KB.
func copilotOutputCut(t *testing.T) {
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(copilotShell("seq 1 4000")),
		fa.Text("done"),
	}})
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("count")
	r := p.result(0)
	if len(r) > 20000 || !strings.HasPrefix(r, "1\n2\n3\n") || !strings.Contains(r, "[atreides: output cut to fit the context: the first ") {
		t.Fatalf("the model did not get the cut output (%d bytes): %q", len(r), tail(r, 600))
	}
	m := savedOutputRE.FindStringSubmatch(r)
	if m == nil {
		t.Fatalf("no saved path in the note: %q", tail(r, 600))
	}
	if saved, err := os.ReadFile(m[1]); err != nil || !strings.Contains(string(saved), "\n4000\n") {
		t.Errorf("the saved output %s lacks the end of the output (%v)", m[1], err)
	}
}

// After `atreides install copilot`, Copilot starts atreides's MCP server
// from ~/.copilot/mcp-config.json and shows every agent tool to the model
// as atreides-<tool>; a todo_add call round-trips (its result reaches the
// model, the todo is in `atreides todo list`). The roster's agents are in
// the task tool's agent_type list, and starting one gives the child its
// prompt.
// stilgarReturn is the roster agent's answer as the return object, which
// the roster's agents must end with (delegation.structured_return).
const stilgarReturn = `{"status":"completed","summary":"keep it simple","artifacts":[],"metadata":{},"errors":[],"next_steps":[]}`

func copilotMCPAndAgents(t *testing.T) {
	p := newCopilotProject(t, fa.Script{
		Steps: []fa.Step{
			fa.Call(fa.ToolUse{Name: "atreides-todo_add", Input: map[string]any{"title": "added over copilot mcp"}}),
			fa.Call(fa.ToolUse{Name: "task", Input: map[string]any{"description": "ask stilgar", "prompt": "ADVISE-ME on the design", "agent_type": "atreides-stilgar", "name": "oracle"}}),
			fa.Text("done"),
		},
		Agents: []fa.AgentScript{{Name: "atreides-stilgar", Match: fa.FirstUserMatches("ADVISE-ME"), Steps: []fa.Step{fa.Text(stilgarReturn)}}},
	})
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("add a todo, then ask the oracle")
	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no model request")
	}
	var offered []string
	for _, tl := range main[0].Msg.Tools {
		offered = append(offered, tl.Name)
	}
	var agentTypes string
	tools, _ := main[0].Body["tools"].([]any)
	for _, tl := range tools {
		if m, _ := tl.(map[string]any); m["name"] == "task" {
			b, _ := json.Marshal(m["input_schema"])
			agentTypes = string(b)
		}
	}
	for _, tl := range agenttools.All() {
		if !slices.Contains(offered, "atreides-"+tl.Name) {
			t.Errorf("atreides-%s not offered to the model; offered: %v", tl.Name, offered)
		}
	}
	if r := p.result(0); !strings.Contains(r, "added over copilot mcp") {
		t.Errorf("todo_add's result did not reach the model: %q", r)
	}
	if list := p.Atreides("todo", "list"); !strings.Contains(list, "added over copilot mcp") {
		t.Errorf("todo list:\n%s", list)
	}
	if !strings.Contains(agentTypes, `"atreides-stilgar"`) {
		t.Errorf("the task tool does not offer the roster's stilgar: %s", agentTypes)
	}
	child := p.Fake.RequestsOf(fa.KindAgent)
	if len(child) == 0 || !strings.Contains(child[0].SystemText()+child[0].AllText(), "Stilgar") {
		t.Errorf("the stilgar child did not get its prompt (%d child requests)", len(child))
	}
	if r := p.result(1); !strings.Contains(r, "keep it simple") {
		t.Errorf("the child's answer did not reach the lead: %q", r)
	}
}

// `atreides install copilot` (user: hooks, MCP server, agents; then the
// project's), a Copilot run, and `atreides uninstall copilot` leave every
// file under the project and HOME as they were, byte for byte, save
// atreides's own state (.atreides in the project, ~/.local where its
// backups are kept) and what Copilot writes for itself under ~/.copilot
// (config.json, session-state, session-store.db*, logs, settings.json.lock,
// installed-plugins: everything there but hooks/, agents/ and
// mcp-config.json, which are compared). Its 235 MB unpack goes to the
// shared $XDG_CACHE_HOME, outside HOME.
func copilotRoundTrip(t *testing.T) {
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{fa.Call(copilotShell("echo hi")), fa.Text("Done.")}})
	p.WriteJSON("../home/.copilot/mcp-config.json", map[string]any{"mcpServers": map[string]any{"other": map[string]any{"command": "other-mcp"}}})
	p.WriteFile("../home/.copilot/hooks/mine.json", `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"true"}]}}`+"\n")
	p.WriteFile(".github/workflows/ci.yml", "on: push\n")
	before := installtest.TreeHashes(t, []string{p.Dir, p.Home}, copilotSkip(t, p)...)
	p.install("../home/.copilot/hooks/atreides.json")
	p.install(".github/hooks/atreides.json", "--project")
	for _, f := range []string{"../home/.copilot/agents/atreides-stilgar.agent.md", "../home/.copilot/mcp-config.json", ".github/agents/atreides-stilgar.agent.md"} {
		if b, err := os.ReadFile(p.Path(f)); err != nil || !strings.Contains(string(b), "atreides") {
			t.Errorf("%s: no atreides in it after install (%v)", f, err)
		}
	}
	p.Run("say hi")
	p.Atreides("uninstall", "copilot", "--project")
	p.Atreides("uninstall", "copilot")
	installtest.SameTrees(t, before, installtest.TreeHashes(t, []string{p.Dir, p.Home}, copilotSkip(t, p)...))
}

// copilotSkip is what the round trip leaves out: atreides's state and the
// project's .git, and what Copilot writes for itself in ~/.copilot (as it
// is now): anything there but the hooks, the agents and the MCP
// configuration.
func copilotSkip(t *testing.T, p *copilotProject) []string {
	t.Helper()
	dir := filepath.Join(p.Home, ".copilot")
	// session-state, always: ~/.copilot itself is then walked, not
	// compared, before and after the run that fills it.
	skip := []string{p.Path(".git"), p.Path(".atreides"), filepath.Join(p.Home, ".local"), filepath.Join(dir, "session-state")}
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !slices.Contains([]string{"hooks", "agents", "mcp-config.json"}, e.Name()) {
			skip = append(skip, filepath.Join(dir, e.Name()))
		}
	}
	return skip
}
