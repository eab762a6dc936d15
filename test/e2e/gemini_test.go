package e2e

import (
	"os"
	"strings"
	"testing"

	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
)

// geminiProject is a scratch project driven by the real Gemini CLI against
// the fake Gemini API.
type geminiProject struct {
	*hostProject
	Fake *fg.Server
	bin  string
}

func newGeminiProject(t *testing.T, script fg.Script) *geminiProject {
	t.Helper()
	bin := geminiCLI.require(t)
	p := &geminiProject{hostProject: newHostProject(t, atreidesFor(t)), Fake: fg.Start(t, script), bin: bin}
	// Auth type "gemini-api-key" keeps GOOGLE_GEMINI_BASE_URL honoured
	// without the "gateway" auth headless mode rejects; no telemetry.
	p.WriteJSON("../home/.gemini/settings.json", map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
	})
	t.Cleanup(func() {
		for _, r := range p.Fake.RequestsOf(fg.KindNotFound) {
			t.Errorf("gemini called an endpoint the fake does not serve: %s %s", r.Method, r.Path)
		}
		if t.Failed() {
			t.Logf("fake gemini requests:\n%s", p.Fake.Summary())
		}
		if path := p.artifactPath("requests.jsonl"); path != "" {
			if err := p.Fake.WriteJSONL(path); err != nil {
				t.Logf("artifacts: %v", err)
			}
		}
	})
	return p
}

// geminiEvents are the Gemini events `atreides install gemini` registers
// (PreCompress for /compress only, matcher "manual"). Notification and the
// model events are left out on purpose.
var geminiEvents = []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd"}

// writeGeminiHooks runs `atreides install gemini --project` and checks the
// project's .gemini/settings.json it writes: every event atreides handles
// runs `<atreides> hook gemini` under the stable name "atreides", with
// Gemini's timeout in milliseconds, BeforeTool limited to the judged tools.
func (p *geminiProject) writeGeminiHooks() {
	p.t.Helper()
	matchers, handlers := p.installedHooks(".gemini/settings.json", "gemini", geminiEvents, "gemini", "--project")
	for ev, h := range handlers {
		if h.Name != "atreides" || h.Timeout != 10000 {
			p.t.Errorf("%s handler: name %q, timeout %d; want atreides, 10000 ms", ev, h.Name, h.Timeout)
		}
	}
	if m := matchers["BeforeTool"]; !strings.Contains(m, "run_shell_command") || !strings.HasPrefix(m, "^(") {
		p.t.Errorf("BeforeTool matcher %q does not anchor the judged tools", m)
	}
	if m := matchers["AfterTool"]; m != "*" {
		p.t.Errorf("AfterTool matcher %q, want *", m)
	}
	if m := matchers["PreCompress"]; m != "manual" {
		p.t.Errorf("PreCompress matcher %q, want manual (/compress only)", m)
	}
}

// Run runs `gemini -p prompt` headless (yolo, so only hooks can stop a
// tool) and fails the test unless it exits 0.
func (p *geminiProject) Run(prompt string, extra ...string) *hostRun {
	p.t.Helper()
	env := append(p.baseEnv(),
		"GOOGLE_GEMINI_BASE_URL="+p.Fake.URL,
		"GEMINI_API_KEY=fake-key",
		"GEMINI_CLI_TRUST_WORKSPACE=true",
	)
	res := p.run("gemini", p.bin, env, append([]string{"-p", prompt, "--output-format", "json", "--yolo"}, extra...)...)
	p.t.Logf("gemini: %d model requests", len(p.Fake.Main()))
	return res
}

// TestGemini runs the Gemini CLI scenarios with atreides as the hook
// handler of every event it handles.
func TestGemini(t *testing.T) {
	geminiCLI.require(t)
	for _, sc := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"DeniedCommand", geminiDenied},
		{"AllowedCommand", geminiAllowed},
		{"SessionStartContext", geminiSessionContext},
		{"AfterAgentKeepsGoingOnceForTodos", geminiStopTodos},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			sc.fn(t)
		})
	}
}

// `rm -rf ~/victim` is refused by BeforeTool: the model gets "Tool
// execution blocked: <atreides's reason>" and victim/ in the (throwaway)
// HOME survives. The target is outside the project because the default
// policy allows recursive deletes inside it.
func geminiDenied(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(fg.Shell("rm -rf ~/victim")),
		fg.Text("I could not delete it."),
	}})
	p.Victim("../home/victim")
	p.writeGeminiHooks()
	p.Run("please delete the victim directory")

	frs := p.Fake.FunctionResponses()
	if len(frs) == 0 {
		t.Fatal("the model was sent no function response")
	}
	if e := frs[0].Error(); !strings.HasPrefix(e, "Tool execution blocked:") || !strings.Contains(e, "atreides blocked this") {
		t.Errorf("function response is not atreides's block: %q", frs[0].Text())
	}
	p.assertExists("../home/victim/precious.txt")
}

// Harmless commands run: their files appear and no response is an error.
func geminiAllowed(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(fg.Shell("echo hello > out.txt")),
		fg.Do(fg.Shell("touch made-by-gemini")),
		fg.Text("Both files written."),
	}})
	p.writeGeminiHooks()
	p.Run("write out.txt and made-by-gemini")

	frs := p.Fake.FunctionResponses()
	if len(frs) != 2 {
		t.Fatalf("got %d function responses, want 2", len(frs))
	}
	for i, fr := range frs {
		if fr.Error() != "" {
			t.Errorf("call %d failed: %q", i, fr.Error())
		}
	}
	if b, err := os.ReadFile(p.Path("out.txt")); err != nil || strings.TrimSpace(string(b)) != "hello" {
		t.Errorf("out.txt = %q, %v; want hello", b, err)
	}
	p.assertExists("made-by-gemini")
}

// SessionStart context reaches the model in the first conversation request.
// Gemini HTML-escapes hook context, so the marker's angle brackets arrive as
// &lt; and &gt;: only its name is checked.
func geminiSessionContext(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{fg.Text("Hello.")}})
	p.writeGeminiHooks()
	p.Run("say hello")

	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no conversation request reached the fake model")
	}
	if !main[0].Contains("atreides:session") {
		t.Errorf("first model request does not carry atreides's SessionStart context; user texts: %q", main[0].UserTexts())
	}
}

// With an open todo, AfterAgent denies once: Gemini runs a retry turn whose
// prompt is atreides's reason (naming the todo). The retried AfterAgent
// carries stop_hook_active=true and atreides lets the turn end.
func geminiStopTodos(t *testing.T) {
	const todo = "write the report"
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Text("All finished."),
		fg.Text("Noted the open todo; stopping now."),
	}})
	p.writeGeminiHooks()
	// The todo is the session's own (only those hold it:
	// docs/work-items.md): Gemini CLI takes the session's id.
	sid := NewSessionID(t)
	p.Atreides("todo", "add", "--session", sid, todo)
	p.Run("do the work", "--session-id", sid)

	main := p.Fake.Main()
	if len(main) != 2 {
		t.Fatalf("got %d conversation requests, want 2 (one retry turn, then the end)", len(main))
	}
	// The retry prompt is a new user part; BeforeAgent context may follow
	// it as a part of its own.
	first := map[string]bool{}
	for _, s := range main[0].UserTexts() {
		first[s] = true
	}
	var reminders []string
	for _, s := range main[1].UserTexts() {
		if !first[s] && strings.Contains(s, todo) && strings.Contains(s, "still open") {
			reminders = append(reminders, s)
		}
	}
	if len(reminders) != 1 {
		t.Errorf("the retry turn carries %d todo reminders from atreides, want 1; new user texts: %q", len(reminders), main[1].UserTexts())
	}
}
