package e2e

import (
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	oc "github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestMCPBindingCopilotQwen: Copilot CLI and Qwen Code, which start
// atreides's MCP server without naming the session to it, have their MCP
// calls bound to the calling session by the host process their hooks run
// under, as Gemini CLI and Codex (TestGeminiMCPTools, TestCodexMCPTools):
// session_status names the session "named by the host", not the
// project's most recently active one.
func TestMCPBindingCopilotQwen(t *testing.T) {
	t.Run("copilot", func(t *testing.T) {
		p := newCopilotProject(t, fa.Script{Steps: []fa.Step{
			fa.Call(fa.ToolUse{Name: "atreides-session_status", Input: map[string]any{}}),
			fa.Text("done"),
		}})
		p.install("../home/.copilot/hooks/atreides.json")
		p.Run("show the session")
		if st := p.result(0); !strings.Contains(st, "(named by the host)") || !strings.Contains(st, "Session "+onlySession(t, p)) {
			t.Errorf("session_status over Copilot's MCP is not bound to the calling session:\n%s", st)
		}
	})
	t.Run("qwen", func(t *testing.T) {
		p := newQwenProject(t, qwenTurns(
			qwenCall("call_st", "mcp__atreides__session_status", map[string]any{}),
			oc.Reply{Text: "done"},
		))
		p.writeQwenHooks()
		p.Run("show the session")
		if st, ok := p.ToolResult("call_st"); !ok || !strings.Contains(st, "(named by the host)") || !strings.Contains(st, "Session "+onlySession(t, p)) {
			t.Errorf("session_status over Qwen's MCP is not bound to the calling session (%v):\n%s", ok, st)
		}
	})
}
