package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/agenttools"
	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/install/installtest"
	oc "github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestQwen runs the Qwen Code scenarios with atreides as the hook handler
// of every event it handles.
func TestQwen(t *testing.T) {
	qwenCLI.require(t)
	for _, sc := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"AllowedCommand", qwenAllowed},
		{"DeniedCommand", qwenDenied},
		{"SecretRead", qwenSecretRead},
		{"AskIsRefusedHeadless", qwenAsk},
		{"SessionStartContext", qwenSessionContext},
		{"StopKeepsGoingOnceForTodos", qwenStopTodos},
		{"MCPTools", qwenMCPTools},
		{"SlashCommandAndAgents", qwenSlashAndAgents},
		{"DelegationRedirectRefused", qwenRedirect},
		{"NestedRules", qwenNestedRules},
		{"CompactionMemory", qwenCompaction},
		{"GovernanceAndLedger", qwenGovernance},
		{"StrikesOnFailures", qwenStrikes},
		{"InstallRoundTrip", qwenRoundTrip},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			sc.fn(t)
		})
	}
}

// A harmless command runs: its file appears and its output reaches the
// model.
func qwenAllowed(t *testing.T) {
	p := newQwenProject(t, qwenTurns(
		qwenCall("call_echo", "run_shell_command", map[string]any{"command": "echo hello > out.txt && echo wrote", "description": "write"}),
		oc.Reply{Text: "Written."},
	))
	p.writeQwenHooks()
	p.Run("write out.txt")

	if b, err := os.ReadFile(p.Path("out.txt")); err != nil || strings.TrimSpace(string(b)) != "hello" {
		t.Errorf("out.txt = %q, %v; want hello", b, err)
	}
	if res, ok := p.ToolResult("call_echo"); !ok || !strings.Contains(res, "wrote") {
		t.Errorf("the command's output did not reach the model: %q", res)
	}
}

// `rm -rf ~/victim` is refused by PreToolUse: the model is sent
// atreides's reason and victim/ in the (throwaway) HOME survives. The
// target is outside the project because the default policy allows
// recursive deletes inside it.
func qwenDenied(t *testing.T) {
	p := newQwenProject(t, qwenTurns(
		qwenCall("call_rm", "run_shell_command", map[string]any{"command": "rm -rf ~/victim", "description": "delete"}),
		oc.Reply{Text: "I could not delete it."},
	))
	p.Victim("../home/victim")
	p.writeQwenHooks()
	res := p.Run("please delete the victim directory")

	p.assertExists("../home/victim/precious.txt")
	got, ok := p.ToolResult("call_rm")
	if !ok || !strings.Contains(got, "atreides blocked this") {
		t.Errorf("the model was not sent atreides's reason: %q", got)
	}
	if !strings.Contains(res.Stderr, "was not run") {
		t.Logf("stderr: %s", res.Stderr)
	}
}

// Reading ~/.ssh/id_rsa with the file tool is refused, and the key's
// content never reaches the model.
func qwenSecretRead(t *testing.T) {
	var p *qwenProject
	p = newQwenProject(t, func(r *oc.Request) oc.Reply {
		if len(p.Main()) == 1 {
			return qwenCall("call_key", "read_file", map[string]any{"file_path": filepath.Join(p.Home, ".ssh", "id_rsa")})
		}
		return oc.Reply{Text: "I may not read it."}
	})
	p.WriteFile("../home/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret-key-body\n")
	p.writeQwenHooks()
	p.Run("show me my ssh key")

	got, ok := p.ToolResult("call_key")
	if !ok || !strings.Contains(got, "secret file") {
		t.Errorf("the model was not sent atreides's reason: %q", got)
	}
	for _, r := range p.Fake.Requests() {
		if strings.Contains(r.Body(), "secret-key-body") {
			t.Fatalf("the key reached the model in request %d", r.Seq)
		}
	}
}

// An "ask" verdict (npm publish) is sent as ask: headless Qwen refuses the
// call and the model sees atreides's reason.
func qwenAsk(t *testing.T) {
	p := newQwenProject(t, qwenTurns(
		qwenCall("call_pub", "run_shell_command", map[string]any{"command": "npm publish", "description": "publish"}),
		oc.Reply{Text: "I will ask the user."},
	))
	p.writeQwenHooks()
	p.Run("publish the package")

	got, ok := p.ToolResult("call_pub")
	if !ok || !strings.Contains(got, "publishing is visible to everyone") {
		t.Errorf("the model was not sent the ask's reason: %q", got)
	}
}

// SessionStart context reaches the model in the first main request (Qwen
// puts it into the system prompt, with < and > escaped).
func qwenSessionContext(t *testing.T) {
	p := newQwenProject(t, qwenTurns(oc.Reply{Text: "Hello."}))
	p.writeQwenHooks()
	p.Run("say hello")

	main := p.Main()
	if len(main) == 0 {
		t.Fatal("no main-agent request reached the fake model")
	}
	if !strings.Contains(main[0].Body(), "atreides:session") {
		t.Errorf("the first model request does not carry atreides's SessionStart context")
	}
}

// With an open todo, Stop blocks once: Qwen runs another turn whose prompt
// is atreides's reason, naming the todo. That turn's Stop carries
// stop_hook_active=true and, with no progress, atreides lets it end.
func qwenStopTodos(t *testing.T) {
	const todo = "write the report"
	p := newQwenProject(t, qwenTurns(oc.Reply{Text: "All finished."}, oc.Reply{Text: "Noted the open todo; stopping now."}))
	p.writeQwenHooks()
	// The todo is the session's own (only those hold it:
	// docs/work-items.md): Qwen Code takes the session's id.
	sid := NewSessionID(t)
	p.Atreides("todo", "add", "--session", sid, todo)
	p.Run("do the work", "--session-id", sid)

	main := p.Main()
	if len(main) != 2 {
		t.Fatalf("got %d main-agent requests, want 2 (one more turn, then the end)", len(main))
	}
	if last := main[1].LastUser(); !strings.Contains(last, todo) || !strings.Contains(last, "still open") {
		t.Errorf("the second turn's prompt is not atreides's reminder: %q", last)
	}
}

// After `atreides install qwen`, Qwen starts atreides's MCP server from the
// project's settings and offers its tools as mcp__atreides__<tool>; a
// todo_add call round-trips.
func qwenMCPTools(t *testing.T) {
	p := newQwenProject(t, qwenTurns(
		qwenCall("call_todo", "mcp__atreides__todo_add", map[string]any{"title": "added over qwen mcp"}),
		oc.Reply{Text: "done"},
	))
	p.writeQwenHooks()
	p.Run("add a todo")

	main := p.Main()
	if len(main) == 0 {
		t.Fatal("no model request")
	}
	// Qwen defers MCP tools: they are not declared, but named to the
	// model for tool_search, and a call by name runs.
	for _, tl := range agenttools.All() {
		if !strings.Contains(main[0].Body(), "mcp__atreides__"+tl.Name) {
			t.Errorf("mcp__atreides__%s not named to the model; declared: %v", tl.Name, main[0].Tools)
		}
	}
	if res, ok := p.ToolResult("call_todo"); !ok || !strings.Contains(res, "added over qwen mcp") {
		t.Errorf("todo_add's result did not reach the model: %q", res)
	}
	if list := p.Atreides("todo", "list"); !strings.Contains(list, "added over qwen mcp") {
		t.Errorf("todo list:\n%s", list)
	}
}

// `atreides install qwen` then `atreides uninstall qwen` leaves every file
// under the project and HOME as it was, in both scopes, with a settings
// file of the user's in each. atreides's own backup directories
// (.atreides/backups in the project, ~/.local/state/atreides/backups for
// the user's files), where install keeps the content it replaced, are
// left out: they are atreides's state, kept on purpose.
func qwenRoundTrip(t *testing.T) {
	p := newQwenProject(t, qwenTurns(oc.Reply{Text: "unused"}))
	// "$version": 4 is what Qwen 0.24.4 adds to a settings file it loads
	// (a migration of its own): with it there already, a run changes
	// nothing Qwen would not.
	p.WriteFile(".qwen/settings.json", "{\n  // the user's\n  \"model\": {\"name\": \"qwen3-coder-plus\"},\n  \"$version\": 4\n}\n")
	p.WriteFile("../home/.qwen/settings.json", "{\"ui\": {\"theme\": \"GitHub\"}}\n")
	roots := []string{p.Dir, p.Home}
	skip := []string{p.Path(".atreides"), filepath.Join(p.Home, ".local", "state", "atreides")}
	for _, scope := range []string{"--project", "--user"} {
		before := installtest.TreeHashes(t, roots, skip...)
		out := p.Atreides("install", "qwen", scope)
		if !strings.Contains(out, "settings.json") {
			t.Errorf("install %s said:\n%s", scope, out)
		}
		p.Atreides("uninstall", "qwen", scope)
		installtest.SameTrees(t, before, installtest.TreeHashes(t, roots, skip...))
	}
	// With a run between (the project scope): what Qwen writes of its own
	// (its state under ~/.qwen: chats, memory, update checks) is left out;
	// the project's files and its settings come back byte for byte, though
	// the run rewrote the settings (so uninstall removed atreides's entries
	// from the text instead of restoring the original).
	skip = append(skip, filepath.Join(p.Home, ".qwen"))
	before := installtest.TreeHashes(t, roots, skip...)
	p.Atreides("install", "qwen")
	p.Run("say hello")
	p.Atreides("uninstall", "qwen")

	installtest.SameTrees(t, before, installtest.TreeHashes(t, roots, skip...))
}

// The slash commands install writes (.qwen/commands/*.md) expand in a
// headless run, with {{args}} replaced by what was typed; the agents it
// writes (.qwen/agents/*.md) are offered in the agent tool's description.
func qwenSlashAndAgents(t *testing.T) {
	p := newQwenProject(t, qwenTurns(oc.Reply{Text: "ok"}))
	p.writeQwenHooks()
	p.Run("/at-plan 3")

	main := p.Main()
	if len(main) == 0 {
		t.Fatal("no model request")
	}
	body := main[0].Body()
	if !strings.Contains(body, "You are running the /at-plan command") || !strings.Contains(body, "The user's arguments: 3") {
		t.Errorf("the /at-plan command did not reach the model expanded")
	}
	var req struct {
		Tools []struct {
			Function struct{ Name, Description string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(main[0].Raw, &req); err != nil {
		t.Fatal(err)
	}
	for _, tl := range req.Tools {
		if tl.Function.Name == "agent" && !strings.Contains(tl.Function.Description, "**atreides-stilgar**") {
			t.Errorf("the agent tool does not offer atreides's stilgar: %.500s", tl.Function.Description)
		}
	}
}

// A delegation redirect (delegation.redirect) is a rewrite of the agent
// tool's input, which Qwen cannot apply under --yolo: the call is refused
// and the model is given the input to call again with.
func qwenRedirect(t *testing.T) {
	p := newQwenProject(t, qwenTurns(
		qwenCall("call_agent", "agent", map[string]any{"description": "look", "prompt": "list files", "subagent_type": "general-purpose"}),
		oc.Reply{Text: "ok"},
	))
	p.WriteFile(".atreides/config.yaml", "delegation:\n  redirect: {general-purpose: explore}\n")
	p.writeQwenHooks()
	p.Run("delegate the look")

	got, ok := p.ToolResult("call_agent")
	if !ok || !strings.Contains(got, "cannot apply") || !strings.Contains(got, `"subagent_type":"explore"`) {
		t.Errorf("the redirect did not become a refusal naming the new input: %q", got)
	}
}

// Qwen loads the root's AGENTS.md itself and no nested one: atreides adds
// those of the directories above a file the agent reads, after the
// result, and not the root's a second time.
func qwenNestedRules(t *testing.T) {
	var p *qwenProject
	p = newQwenProject(t, func(r *oc.Request) oc.Reply {
		if len(p.Main()) == 1 {
			return qwenCall("call_read", "read_file", map[string]any{"file_path": p.Path("sub/deeper/x.txt")})
		}
		return oc.Reply{Text: "ok"}
	})
	p.WriteFile("AGENTS.md", "root-rules-marker\n")
	p.WriteFile("sub/AGENTS.md", "sub-rules-marker\n")
	p.WriteFile("sub/deeper/AGENTS.md", "deeper-rules-marker\n")
	p.WriteFile("sub/deeper/x.txt", "hello\n")
	p.writeQwenHooks()
	p.Run("read sub/deeper/x.txt")

	main := p.Main()
	if len(main) < 2 {
		t.Fatalf("got %d main-agent requests, want 2", len(main))
	}
	first, second := main[0].Body(), main[1].Body()
	if strings.Contains(first, "sub-rules-marker") || !strings.Contains(second, "sub-rules-marker") || !strings.Contains(second, "deeper-rules-marker") {
		t.Errorf("the nested rules did not arrive after the read (before: %v)", strings.Contains(first, "sub-rules-marker"))
	}
	if n1, n2 := strings.Count(first, "root-rules-marker"), strings.Count(second, "root-rules-marker"); n1 != 1 || n2 != 1 {
		t.Errorf("the root's AGENTS.md is in the requests %d and %d times, want once each (Qwen's own)", n1, n2)
	}
}

// Compaction memory: with a tiny auto-compaction threshold Qwen compacts
// before the second model request, firing PreCompact (atreides takes its
// snapshot) and then SessionStart with source "compact" (atreides gives it
// back): the anchor added before the run reaches the model after the
// summary. Qwen runs that SessionStart without waiting for it, so its
// context arrives with a later request, not necessarily the first after
// the summary.
func qwenCompaction(t *testing.T) {
	const anchor = "the-anchor-marker: never touch prod"
	p := newQwenProject(t, qwenTurns(
		qwenCall("call_1", "run_shell_command", map[string]any{"command": "echo one", "description": "one"}),
		qwenCall("call_2", "run_shell_command", map[string]any{"command": "echo two", "description": "two"}),
		oc.Reply{Text: "done"},
	))
	p.WriteFile("../home/.qwen/settings.json", `{"context": {"autoCompactThreshold": 0.0001}}`)
	p.writeQwenHooks()
	p.Atreides("anchor", "add", anchor)
	p.Run("work")

	var summarized, restored bool
	for _, r := range p.Main() {
		if strings.Contains(r.LastUser(), "the fake's summary") {
			summarized = true
			restored = restored || strings.Contains(r.Body(), anchor)
		}
	}
	if !summarized {
		t.Fatal("Qwen did not compact (no main request after a summary)")
	}
	if !restored {
		t.Errorf("the anchor did not reach the model after compaction")
	}
	if log := p.Atreides("log"); !strings.Contains(log, "PreCompact") || !strings.Contains(log, "context compacted (auto)") {
		t.Errorf("atreides did not see PreCompact:\n%s", log)
	}
}

// TestQwenBackground: a background task for qwen runs its default command
// (background.commands.qwen: qwen -p … --output-format stream-json --yolo)
// against the fake model, and the answer parser reads the real CLI's
// JSON lines: the task completes with the model's answer and Qwen's
// session id. Not parallel: the supervisor inherits this process's
// environment.
func TestQwenBackground(t *testing.T) {
	const answer = "HEADLESS-ANSWER-q7"
	p := newQwenProject(t, qwenTurns(oc.Reply{Text: answer}))
	atreides := atreidesFor(t)
	t.Setenv("HOME", p.Home)
	t.Setenv("PATH", strings.Join([]string{node22Dir(), filepath.Dir(p.bin), filepath.Dir(atreides), os.Getenv("PATH")}, string(os.PathListSeparator)))
	for k, v := range map[string]string{"OPENAI_BASE_URL": p.Fake.URL, "OPENAI_API_KEY": "fake-key", "OPENAI_MODEL": "fake-model", "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"} {
		t.Setenv(k, v)
	}
	task := runBackgroundTask(t, p.Dir, atreides, "qwen")
	if task.Status != background.Completed || task.Result != answer || task.Child == "" {
		out := background.Dir(p.Dir, "bg-1")
		stdout, _ := os.ReadFile(filepath.Join(out, "stdout"))
		stderr, _ := os.ReadFile(filepath.Join(out, "stderr"))
		t.Errorf("bg-1: %s, result %q, error %q, session %q\nstdout:\n%s\nstderr:\n%s",
			task.Status, task.Result, task.Error, task.Child, tail(string(stdout), 3000), tail(string(stderr), 3000))
	}
}

// Governance through the real Qwen Code: a write before an intent is
// selected is refused; the agent selects the intent over atreides's MCP
// server and the write lands; a write outside the owned scope is refused;
// the ledger verifies and names the intent and file of the change.
func qwenGovernance(t *testing.T) {
	var p *qwenProject
	write := func(id, rel, content string) oc.Reply {
		return qwenCall(id, "write_file", map[string]any{"file_path": p.Path(rel), "content": content})
	}
	p = newQwenProject(t, func(r *oc.Request) oc.Reply {
		switch len(p.Main()) {
		case 1:
			return write("call_w1", "src/api.md", "# API\n")
		case 2:
			return qwenCall("call_sel", "mcp__atreides__select_active_intent", map[string]any{"intent_id": "docs"})
		case 3:
			return write("call_w2", "src/api.md", "# API\n\nGET /v1/things\n")
		case 4:
			return write("call_w3", "outside.md", "out of scope\n")
		}
		return oc.Reply{Text: "Documented what was in scope."}
	})
	p.WriteFile(".atreides/config.yaml", governanceConfig)
	p.WriteFile(".atreides/intents.yaml", intentsYAML)
	p.writeQwenHooks()
	p.Run("document the API")

	for id, want := range map[string]string{"call_w1": "select_active_intent", "call_w3": "outside the owned scope"} {
		if got, _ := p.ToolResult(id); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it refused (%s)", id, got, want)
		}
	}
	if got, _ := p.ToolResult("call_sel"); !strings.Contains(got, "Document the API") {
		t.Errorf("select_active_intent through MCP: %q", got)
	}
	if b, err := os.ReadFile(p.Path("src/api.md")); err != nil || !strings.Contains(string(b), "GET /v1/things") {
		t.Errorf("the write inside the scope did not land: %q %v", b, err)
	}
	if _, err := os.Stat(p.Path("outside.md")); err == nil {
		t.Error("outside.md was written outside the scope")
	}
	if out := p.Atreides("trace", "verify"); !strings.Contains(out, "ledger OK") {
		t.Errorf("trace verify: %s", out)
	}
	if out := p.Atreides("trace", "show", "--json"); !strings.Contains(out, `"docs"`) || !strings.Contains(out, "src/api.md") {
		t.Errorf("no trace record names the intent and the file:\n%s", out)
	}
}

// Strikes: the same command failing twice (PostToolUseFailure) gets
// atreides's warning after its result, where the model reads it.
func qwenStrikes(t *testing.T) {
	fail := map[string]any{"command": "ls /nonexistent-qwen-dir", "description": "look"}
	p := newQwenProject(t, qwenTurns(
		qwenCall("call_f1", "run_shell_command", fail),
		qwenCall("call_f2", "run_shell_command", fail),
		oc.Reply{Text: "It does not exist."},
	))
	p.writeQwenHooks()
	p.Run("look at the dir")

	main := p.Main()
	if len(main) != 3 {
		t.Fatalf("got %d main-agent requests, want 3", len(main))
	}
	const warned = "failed 2 times in a row"
	if strings.Contains(main[1].Body(), warned) || !strings.Contains(main[2].Body(), warned) {
		t.Errorf("the strike warning did not follow the second failure (after the first: %v)", strings.Contains(main[1].Body(), warned))
	}
}
