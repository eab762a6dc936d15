package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/atreides-dev/atreides/internal/install/installtest"
	fc "github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// clineProject is a scratch project driven by the real Cline CLI against
// the fake chat-completions API. Cline's config directory (where its
// user hooks live) and its data directory are beside the project and the
// HOME, not in them, so that the install round trip compares only what
// atreides writes.
type clineProject struct {
	*hostProject
	Fake      *fc.Server
	bin       string
	cfg, data string
}

func newClineProject(t *testing.T, script fc.Script) *clineProject {
	t.Helper()
	bin := clineCLI.require(t)
	p := &clineProject{hostProject: newHostProject(t, atreidesFor(t)), Fake: fc.Start(t, script), bin: bin}
	root := filepath.Dir(p.Dir)
	// The data directory where Cline looks for it by default, in the
	// config directory: its MCP file is there.
	p.cfg = filepath.Join(root, "cline-config")
	p.data = filepath.Join(p.cfg, "data")
	// CLINE_DIR names the same config directory as --config, for
	// `atreides install cline --user`.
	p.extraEnv = []string{"CLINE_DIR=" + p.cfg}
	// One-off provider setup: the openai-compatible provider at the fake.
	p.run("cline-auth", bin, p.baseEnv(), "auth", "-p", "openai-compatible", "-k", "x", "-m", "fake-model", "-b", p.Fake.URL,
		"--config", p.cfg, "--data-dir", p.data)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("fake model requests:\n%s", p.Fake.Summary())
		}
		stopClineHubs(t, p.Dir)
	})
	return p
}

// stopClineHubs ends the hub daemons Cline started for the project: a
// run (seen after a background task's `cline --json`) can leave one
// running, detached (--cline-hub-daemon --cwd <project>), and it would
// outlive the test.
func stopClineHubs(t *testing.T, dir string) {
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		i := slices.Index(args, "--cwd")
		if !slices.Contains(args, "--cline-hub-daemon") || i < 0 || i+1 >= len(args) || args[i+1] != dir {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		if err == nil && syscall.Kill(pid, syscall.SIGKILL) == nil {
			t.Logf("stopped Cline's hub daemon %d", pid)
		}
	}
}

// install runs `atreides install cline` (the project's hook files) and
// checks every hook file it writes hands the event to atreides.
func (p *clineProject) install() {
	p.t.Helper()
	p.t.Logf("atreides install cline:\n%s", p.Atreides("install", "cline"))
	for _, ev := range []string{"PreToolUse", "PostToolUse", "TaskStart", "TaskResume", "TaskComplete"} {
		path := p.Path(".clinerules/hooks/" + ev)
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm()&0o100 == 0 {
			p.t.Fatalf("no executable hook file for %s: %v", ev, err)
		}
		b, _ := os.ReadFile(path)
		if want := "exec atreides hook cline --event " + ev + " --timeout 10\n"; !strings.HasSuffix(string(b), want) {
			p.t.Errorf("%s:\n%s\nwant it to end in %q", path, b, want)
		}
	}
}

// Run runs `cline --json PROMPT` headless (auto-approve is its default,
// so only hooks can stop a tool).
func (p *clineProject) Run(prompt string) *hostRun {
	p.t.Helper()
	res := p.run("cline", p.bin, p.baseEnv(), "--json", "--config", p.cfg, "--data-dir", p.data,
		"-P", "openai-compatible", "-m", "fake-model", prompt)
	p.t.Logf("cline: %d model requests", len(p.Fake.MainRequests()))
	if strings.Contains(res.Stdout, `"finishReason":"aborted"`) {
		p.t.Errorf("the run was aborted (a hook cancelled it):\n%s", tail(res.Stdout, 2000))
	}
	return res
}

// replies answers the main requests in turn, then "Done.".
func replies(rs ...fc.Reply) fc.Script {
	return func(r *fc.Request) fc.Reply {
		n := 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				n++
			}
		}
		if n < len(rs) {
			return rs[n]
		}
		return fc.Reply{Text: "Done."}
	}
}

// after is the text the model was sent after its call id: the tool's
// result and the user messages that follow it (Cline's hook context).
func (p *clineProject) after(id string) (result, rest string) {
	p.t.Helper()
	for _, r := range p.Fake.MainRequests() {
		res, ok := r.ToolResult(id)
		if !ok {
			continue
		}
		var b strings.Builder
		seen := false
		for _, m := range r.Messages {
			if m.Role == "tool" && m.ToolCallID == id {
				seen = true
				continue
			}
			if seen && m.Role == "user" {
				b.WriteString(m.Content + "\n")
			}
		}
		return res, b.String()
	}
	p.t.Fatalf("no request carries the result of %s", id)
	return "", ""
}

// TestCline runs the Cline CLI scenarios with atreides's hook files in
// the project's .clinerules/hooks.
func TestCline(t *testing.T) {
	clineCLI.require(t)
	for _, sc := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"AllowedCommands", clineAllowed},
		{"DeniedCommand", clineDenied},
		{"SecretRead", clineSecretRead},
		{"SessionContext", clineSessionContext},
		{"StopCannotContinue", clineStop},
		{"InstallUninstallByteIdentical", clineRoundTrip},
		{"MCPTools", clineMCP},
		{"SlashCommand", clineSlash},
		{"EditorWriteRefused", clineEditor},
		{"SubagentGuarded", clineSubagent},
		{"NestedRules", clineNestedRules},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			sc.fn(t)
		})
	}
}

// Harmless commands run, both of one run_commands call (atreides has Cline
// run them as the one script it judged).
func clineAllowed(t *testing.T) {
	p := newClineProject(t, replies(fc.Tool("call_1", "run_commands", `{"commands":["echo hello > out.txt","touch made-by-cline"]}`)))
	p.install()
	p.Run("write out.txt and made-by-cline")

	res, _ := p.after("call_1")
	if strings.Contains(res, `"success":false`) || strings.Contains(res, "atreides") {
		t.Errorf("the commands failed or were refused: %s", res)
	}
	if b, err := os.ReadFile(p.Path("out.txt")); err != nil || strings.TrimSpace(string(b)) != "hello" {
		t.Errorf("out.txt = %q, %v; want hello", b, err)
	}
	p.assertExists("made-by-cline")
}

// `rm -rf ~/victim` never runs: Cline runs the command atreides put in its
// place, which prints the reason and fails, so the model reads the reason
// in the result (and as context after it); the run goes on. The target is
// outside the project because the default policy allows recursive deletes
// inside it.
func clineDenied(t *testing.T) {
	p := newClineProject(t, replies(fc.Tool("call_1", "run_commands", `{"commands":["rm -rf ~/victim"]}`), fc.Reply{Text: "I could not delete it."}))
	p.Victim("../home/victim")
	p.install()
	p.Run("please delete the victim directory")

	p.assertExists("../home/victim/precious.txt")
	res, rest := p.after("call_1")
	if !strings.Contains(res, "atreides blocked this call") || !strings.Contains(res, `"success":false`) {
		t.Errorf("the tool result does not carry atreides's refusal: %s", res)
	}
	if !strings.Contains(rest, "atreides blocked this call") {
		t.Errorf("no hook context with the reason after the result: %q", rest)
	}
}

// Reading a private key with the file tool is refused: Cline gets an input
// its schema rejects, so nothing is read, and the reason follows as
// context.
func clineSecretRead(t *testing.T) {
	const secret = "PRIVATE-KEY-MATERIAL-e2e"
	var key later // the HOME is known once the project is made
	p := newClineProject(t, func(r *fc.Request) fc.Reply {
		return replies(fc.Tool("call_1", "read_files", `{"files":[{"path":"`+key.get()+`"}]}`))(r)
	})
	key.set(filepath.Join(p.Home, ".ssh", "id_rsa"))
	p.WriteFile("../home/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n"+secret+"\n")
	p.install()
	p.Run("show me my ssh key")

	for _, r := range p.Fake.Requests() {
		if strings.Contains(r.Body(), secret) {
			t.Fatalf("the key reached the model in request %d", r.Seq)
		}
	}
	res, rest := p.after("call_1")
	if !strings.Contains(rest, "atreides blocked this call") {
		t.Errorf("no hook context with the reason; result %q, then %q", res, rest)
	}
}

// The editor may not rewrite atreides's own hook: the guard asks, which on
// Cline is a refusal (an input the editor's schema rejects), so the file
// stays as install wrote it and the model is told to ask the user.
func clineEditor(t *testing.T) {
	var hook later // the project is known once it is made
	p := newClineProject(t, func(r *fc.Request) fc.Reply {
		return replies(fc.Tool("call_1", "editor", `{"path":"`+hook.get()+`","new_text":"#!/bin/sh\nexit 0\n"}`))(r)
	})
	hook.set(p.Path(".clinerules/hooks/PreToolUse"))
	p.install()
	before, _ := os.ReadFile(hook.get())
	p.Run("switch the hook off")

	if after, _ := os.ReadFile(hook.get()); string(after) != string(before) || len(before) == 0 {
		t.Errorf("the hook file changed:\n%s", after)
	}
	res, rest := p.after("call_1")
	if !strings.Contains(rest, "atreides blocked this call") || !strings.Contains(rest, "Ask the user") {
		t.Errorf("no refusal telling the model to ask; result %q, then %q", res, rest)
	}
}

// A spawned agent's tool calls go through the same hooks, as the
// subagent's: its `rm -rf ~/victim` is refused, and the audit trail names
// the agent.
func clineSubagent(t *testing.T) {
	const sub = "SUBAGENT-PROMPT-e2e"
	main := replies(fc.Tool("call_1", "spawn_agent", `{"systemPrompt":"`+sub+` You delete things.","task":"delete ~/victim"}`), fc.Reply{Text: "The helper is done."})
	child := replies(fc.Tool("call_s1", "run_commands", `{"commands":["rm -rf ~/victim"]}`), fc.Reply{Text: "I could not delete it."})
	p := newClineProject(t, func(r *fc.Request) fc.Reply {
		if strings.Contains(r.System(), sub) {
			return child(r)
		}
		return main(r)
	})
	p.Victim("../home/victim")
	p.install()
	p.Run("have a helper delete the victim directory")

	p.assertExists("../home/victim/precious.txt")
	if res, _ := p.after("call_s1"); !strings.Contains(res, "atreides blocked this call") {
		t.Errorf("the subagent's result does not carry atreides's refusal: %s", res)
	}
	audit, _ := os.ReadFile(p.Path(".atreides/audit.jsonl"))
	found := false
	for _, l := range strings.Split(string(audit), "\n") {
		found = found || strings.Contains(l, `"verdict":"deny"`) && strings.Contains(l, `"agent":"subagent"`)
	}
	if !found {
		t.Errorf("no deny of the subagent's call in the audit trail:\n%s", audit)
	}
}

// Cline loads only the root's AGENTS.md: a nested one reaches the model
// from atreides, after the first read of a file below it.
func clineNestedRules(t *testing.T) {
	const marker = "NESTED-RULES-MARKER-c1"
	var file later // the project is known once it is made
	p := newClineProject(t, func(r *fc.Request) fc.Reply {
		return replies(fc.Tool("call_1", "read_files", `{"files":[{"path":"`+file.get()+`"}]}`))(r)
	})
	file.set(p.Path("pkg/code.txt"))
	p.WriteFile("pkg/AGENTS.md", marker+": keep pkg small.\n")
	p.WriteFile("pkg/code.txt", "code\n")
	p.install()
	p.Run("read pkg/code.txt")

	if strings.Contains(p.Fake.MainRequests()[0].Body(), marker) {
		t.Log("Cline loaded the nested AGENTS.md itself")
	}
	if _, rest := p.after("call_1"); !strings.Contains(rest, marker) {
		t.Errorf("the nested rules did not follow the read; user messages: %q", rest)
	}
}

// The session's context (atreides's marker) reaches the model. Cline does
// not wait for TaskStart's answer, so it comes with the first tool event
// after it: the model reads it after its first call's result.
func clineSessionContext(t *testing.T) {
	p := newClineProject(t, replies(fc.Tool("call_1", "run_commands", `{"commands":["true"]}`)))
	p.install()
	p.Run("look around")

	main := p.Fake.MainRequests()
	if len(main) < 2 {
		t.Fatalf("got %d model requests, want 2", len(main))
	}
	if strings.Contains(main[0].Body(), "atreides:session") {
		t.Log("the first request already carries the session context")
	}
	if _, rest := p.after("call_1"); !strings.Contains(rest, "atreides:session") {
		t.Errorf("the session context did not reach the model after the first call; user messages: %q", rest)
	}
}

// With an open todo the agent is not kept going: Cline 3.0.65 runs its
// TaskComplete hook without waiting for an answer, so the run ends after
// the model's final text whatever atreides says. One model request.
//
// The todo is the session's own: its agent adds it (Cline names no
// session, so the command acts for the project's most recent one, this
// session; docs/work-items.md).
func clineStop(t *testing.T) {
	add, err := json.Marshal(map[string]any{"commands": []string{atreidesFor(t) + " todo add 'write the report'"}})
	if err != nil {
		t.Fatal(err)
	}
	p := newClineProject(t, replies(fc.Tool("call_todo", "run_commands", string(add)), fc.Reply{Text: "All finished."}, fc.Reply{Text: "Noted the open todo."}))
	p.install()
	p.Run("do the work")

	if n := len(p.Fake.MainRequests()); n != 2 {
		t.Errorf("got %d model requests, want 2 (the todo added, then the end): Cline has learnt to continue at TaskComplete; make atreides use it", n)
	}
	// atreides did try: its TaskComplete answer kept the agent going, as
	// the audit trail records, and Cline did not read it.
	audit, err := os.ReadFile(p.Path(".atreides/audit.jsonl"))
	if err != nil {
		t.Fatalf("no audit trail: %v", err)
	}
	tried := false
	for _, l := range strings.Split(string(audit), "\n") {
		tried = tried || strings.Contains(l, `"host_event":"TaskComplete"`) && strings.Contains(l, `"block":true`) && strings.Contains(l, "write the report")
	}
	if !tried {
		t.Errorf("no TaskComplete decision keeping the agent going in the audit trail:\n%s", audit)
	}
}

// After `atreides install cline --user` Cline offers atreides's tools as
// atreides__<tool>, and a todo_add call adds the todo.
func clineMCP(t *testing.T) {
	const title = "added over cline mcp"
	p := newClineProject(t, replies(fc.Tool("call_1", "atreides__todo_add", `{"title":"`+title+`"}`)))
	out := p.Atreides("install", "cline", "--user")
	if !strings.Contains(out, "installed mcpServers.atreides") {
		t.Fatalf("install cline --user did not register the MCP server:\n%s", out)
	}
	p.Run("add a todo")

	main := p.Fake.MainRequests()
	if len(main) == 0 || !slices.Contains(main[0].Tools, "atreides__todo_add") {
		t.Fatalf("atreides__todo_add not offered to the model")
	}
	if res, _ := p.after("call_1"); !strings.Contains(res, "added todo #1") {
		t.Errorf("todo_add result: %q", res)
	}
	if list := p.Atreides("todo", "list"); !strings.Contains(list, title) {
		t.Errorf("the todo is not in atreides's list:\n%s", list)
	}
}

// atreides's slash commands are Cline workflows: a headless "/at-plan 3"
// reaches the model as the command's text with the argument after
// "Arguments:".
func clineSlash(t *testing.T) {
	p := newClineProject(t, replies(fc.Reply{Text: "Planned."}))
	p.install()
	if _, err := os.Stat(p.Path(".clinerules/workflows/at-plan.md")); err != nil {
		t.Fatalf("no workflow for /at-plan: %v", err)
	}
	p.Run("/at-plan 3")

	main := p.Fake.MainRequests()
	if len(main) == 0 {
		t.Fatal("no model request")
	}
	got := main[0].LastUser()
	if !strings.Contains(got, "You are running the /at-plan command") || !strings.HasSuffix(strings.TrimSpace(got), "Arguments: 3") || strings.Contains(got, "atreides command file") {
		t.Errorf("the prompt is not /at-plan's text with its argument:\n%s", got)
	}
}

// `atreides install cline` then `atreides uninstall cline`, in both
// scopes, leave every file and directory under the project, the HOME and
// Cline's config directory as they were, but atreides's own state, where
// install keeps its backup records (the project's .atreides/ and
// ~/.local/state/atreides, with the directories above it).
func clineRoundTrip(t *testing.T) {
	p := newClineProject(t, replies())
	p.WriteFile(".clinerules/rules.md", "the team's rules\n")
	dirs := []string{p.Dir, p.Home, p.cfg}
	own := []string{filepath.Join(p.Dir, ".atreides"), filepath.Join(p.Home, ".local", "state", "atreides")}
	before := installtest.TreeHashes(t, dirs, own...)
	p.install()
	p.Atreides("install", "cline", "--user")
	if _, err := os.Stat(filepath.Join(p.cfg, "hooks", "PreToolUse")); err != nil {
		t.Errorf("--user wrote no hook into $CLINE_DIR/hooks: %v", err)
	}
	p.Atreides("uninstall", "cline")
	p.Atreides("uninstall", "cline", "--user")
	installtest.SameTrees(t, before, installtest.TreeHashes(t, dirs, own...))
}

// later is a string a fake model's script reads that the test knows only
// once the project is made; the fake answers on goroutines of its own.
type later struct{ p atomic.Pointer[string] }

func (l *later) set(s string) { l.p.Store(&s) }

func (l *later) get() string {
	if s := l.p.Load(); s != nil {
		return *s
	}
	return ""
}
