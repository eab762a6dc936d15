package e2e

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	oc "github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// This file drives the real Qwen Code (headless, --yolo) against
// fakeopenaichat. Qwen sends every model request as a streamed chat
// completion; besides the main agent ("You are Qwen Code, a
// non-interactive CLI agent ...") it may start helpers of its own (the
// memory-extraction subagent, a subagent the model started), which the
// fake answers with a short text and the scenarios leave aside.

// qwenMainPrompt begins the system prompt of Qwen's main agent.
const qwenMainPrompt = "You are Qwen Code"

// qwenProject is a scratch project driven by the real Qwen Code.
type qwenProject struct {
	*hostProject
	Fake *oc.Server
	bin  string
}

// newQwenProject starts the fake with script answering the main agent's
// requests (any other request gets a short text) and a project whose
// user settings keep Qwen offline and quiet.
func newQwenProject(t *testing.T, script oc.Script) *qwenProject {
	t.Helper()
	bin := qwenCLI.require(t)
	fake := oc.Start(t, func(r *oc.Request) oc.Reply {
		switch {
		case qwenSummary(r):
			return oc.Reply{Text: "<state_snapshot>the fake's summary</state_snapshot>"}
		case !qwenMain(r):
			return oc.Reply{Text: "nothing to add"}
		}
		return script(r)
	})
	p := &qwenProject{hostProject: newHostProject(t, atreidesFor(t)), Fake: fake, bin: bin}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("fake model requests:\n%s", p.Fake.Summary())
		}
	})
	return p
}

// qwenMain tells the main agent's requests from the helpers': Qwen's
// compaction and its memory extraction (after a turn ends) send the main
// agent's system prompt too, with their own instructions as the last user
// message.
func qwenMain(r *oc.Request) bool {
	return strings.Contains(r.System(), qwenMainPrompt) && !qwenSummary(r) && !strings.Contains(r.LastUser(), qwenMemoryTask)
}

// qwenMemoryTask begins the task of Qwen's memory-extraction subagent.
const qwenMemoryTask = "Managed memory has TWO directories"

// qwenSummary is a request of Qwen's compaction for a summary of the
// conversation.
func qwenSummary(r *oc.Request) bool {
	return strings.Contains(r.System(), qwenSummarizer) || strings.Contains(r.LastUser(), qwenSummarizer)
}

// qwenSummarizer begins the instructions of Qwen's compaction summarizer.
const qwenSummarizer = "You are the component that summarizes a conversation"

// Main is the main agent's requests so far.
func (p *qwenProject) Main() []*oc.Request {
	var out []*oc.Request
	for _, r := range p.Fake.Requests() {
		if qwenMain(r) {
			out = append(out, r)
		}
	}
	return out
}

// ToolResult is what the model was sent for the tool call id, from the
// first main request that carries it.
func (p *qwenProject) ToolResult(id string) (string, bool) {
	for _, r := range p.Main() {
		if s, ok := r.ToolResult(id); ok {
			return s, true
		}
	}
	return "", false
}

// qwenEvents are the events `atreides install qwen` registers.
var qwenEvents = []string{
	"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
	"Stop", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd",
}

// writeQwenHooks runs `atreides install qwen` (the project scope is the
// default) and checks the .qwen/settings.json it writes: every event runs
// `atreides hook qwen` with a timeout in seconds, PreToolUse limited to
// the judged tools.
func (p *qwenProject) writeQwenHooks() {
	p.t.Helper()
	matchers, handlers := p.installedHooks(".qwen/settings.json", "qwen", qwenEvents, "qwen", "--project")
	for ev, h := range handlers {
		if h.Timeout != 10 {
			p.t.Errorf("%s handler timeout %d, want 10 (seconds)", ev, h.Timeout)
		}
	}
	if m := matchers["PreToolUse"]; !strings.Contains(m, "run_shell_command") || !strings.HasPrefix(m, "^(") {
		p.t.Errorf("PreToolUse matcher %q does not anchor the judged tools", m)
	}
}

// Run runs `qwen PROMPT --yolo` headless (so only hooks can stop a tool)
// with Node 22 first on PATH, and fails the test unless it exits 0.
func (p *qwenProject) Run(prompt string, extra ...string) *hostRun {
	p.t.Helper()
	env := p.baseEnv()
	env[0] = "PATH=" + node22Dir() + string(os.PathListSeparator) + strings.TrimPrefix(env[0], "PATH=")
	env = append(env,
		"OPENAI_BASE_URL="+p.Fake.URL,
		"OPENAI_API_KEY=fake-key",
		"OPENAI_MODEL=fake-model",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1",
	)
	res := p.run("qwen", p.bin, env, append([]string{prompt, "--yolo"}, extra...)...)
	p.t.Logf("qwen: %d main-agent requests", len(p.Main()))
	return res
}

// qwenCall is a reply that calls one of Qwen's tools.
func qwenCall(id, name string, args map[string]any) oc.Reply {
	b, _ := json.Marshal(args)
	return oc.Reply{Calls: []oc.Call{{ID: id, Name: name, Arguments: string(b)}}}
}

// qwenTurns answers the main agent's n-th request (from 1) with replies[n-1],
// and any later one with the last.
func qwenTurns(replies ...oc.Reply) oc.Script {
	n := 0
	return func(*oc.Request) oc.Reply {
		n++
		return replies[min(n, len(replies))-1]
	}
}
