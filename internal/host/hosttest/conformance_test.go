package hosttest

import (
	"encoding/json"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/codex"
	"github.com/atreides-dev/atreides/internal/host/gemini"
)

// The reasons and texts of the suite's table, as each host must carry them.
const (
	denyReason = "rm -rf would delete victim"
	askReason  = "force push rewrites history"
	stopReason = "todos open: write the report"
)

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// payloadFunc builds payloads from the fields every host shares; fields
// maps a kind to the host's event name and the event's own fields, given
// the command as a JSON string.
func payloadFunc(fields func(kind event.Kind, cmd string) string) func(event.Kind, string) []byte {
	return func(kind event.Kind, cmd string) []byte {
		return []byte(`{"session_id":"s","transcript_path":"/home/t.jsonl","cwd":"/proj",` + fields(kind, jsonString(cmd)) + `}`)
	}
}

func TestClaude(t *testing.T) {
	Run(t, claude.Adapter{}, Expectations{
		Env: map[string]string{"CLAUDE_PROJECT_DIR": "/proj"},
		Payload: payloadFunc(func(kind event.Kind, cmd string) string {
			switch kind {
			case event.PreTool:
				return `"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":` + cmd + `,"description":"d"},"tool_use_id":"toolu_1"`
			case event.PostTool:
				return `"permission_mode":"default","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":` + cmd + `},"tool_response":{"stdout":"FAIL","stderr":"","interrupted":false},"tool_use_id":"toolu_1"`
			case event.SessionStart:
				return `"hook_event_name":"SessionStart","source":"startup"`
			case event.Stop:
				return `"permission_mode":"default","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"`
			}
			return `"hook_event_name":"?"`
		}),
		Want: map[Case]Wire{
			DenyShell:       {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + denyReason + `"}}`},
			AskShell:        {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"` + askReason + `"}}`},
			AllowRewrite:    {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}`},
			SessionContext:  {Stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: plan"}}`},
			PostToolContext: {Stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"3 tests failed"}}`},
			KeepGoing:       {Stdout: `{"decision":"block","reason":"` + stopReason + `"}`},
			Nothing:         {},
			UnreadableTool:  {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"<contains:could not read>"}}`, Exit: 2, Stderr: "could not read"},
		},
	})
}

// Gemini has no ask and no hookSpecificOutput permission field: every
// refusal is a top-level decision "deny", and keep-going is a deny of
// AfterAgent (Gemini retries the turn with the reason as the prompt).
func TestGemini(t *testing.T) {
	Run(t, gemini.Adapter{}, Expectations{
		Env: map[string]string{"GEMINI_PROJECT_DIR": "/proj", "CLAUDE_PROJECT_DIR": "/proj"},
		Payload: payloadFunc(func(kind event.Kind, cmd string) string {
			const ts = `"timestamp":"2026-11-22T10:30:51.748Z",`
			switch kind {
			case event.PreTool:
				return ts + `"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":` + cmd + `,"description":"d"}`
			case event.PostTool:
				return ts + `"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":` + cmd + `},"tool_response":{"llmContent":"Output: FAIL","returnDisplay":"FAIL"}`
			case event.SessionStart:
				return ts + `"hook_event_name":"SessionStart","source":"startup"`
			case event.Stop:
				return ts + `"hook_event_name":"AfterAgent","prompt":"do it","prompt_response":"done","stop_hook_active":false`
			}
			return `"hook_event_name":"?"`
		}),
		Want: map[Case]Wire{
			DenyShell:       {Stdout: `{"decision":"deny","reason":"` + denyReason + `"}`},
			AskShell:        {Stdout: `{"decision":"deny","reason":"` + Contains(askReason) + `"}`},
			AllowRewrite:    {Stdout: `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls -la"}}}`},
			SessionContext:  {Stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: plan"}}`},
			PostToolContext: {Stdout: `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"3 tests failed"}}`},
			KeepGoing:       {Stdout: `{"decision":"deny","reason":"` + stopReason + `"}`},
			Nothing:         {},
			UnreadableTool:  {Stdout: `{"decision":"deny","reason":"<contains:could not read>"}`, Exit: 2, Stderr: "could not read"},
		},
	})
}

// Codex speaks Claude's shapes but rejects "ask" (so it becomes a deny)
// and sets no project variable (the project is the cwd).
func TestCodex(t *testing.T) {
	Run(t, codex.Adapter{}, Expectations{
		Env: map[string]string{"CODEX_MANAGED_BY_NPM": "1"},
		Payload: payloadFunc(func(kind event.Kind, cmd string) string {
			const common = `"model":"gpt-fake","permission_mode":"bypassPermissions",`
			switch kind {
			case event.PreTool:
				return common + `"turn_id":"t1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":` + cmd + `},"tool_use_id":"call_1"`
			case event.PostTool:
				return common + `"turn_id":"t1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":` + cmd + `},"tool_response":"FAIL\n","tool_use_id":"call_1"`
			case event.SessionStart:
				return common + `"hook_event_name":"SessionStart","source":"startup"`
			case event.Stop:
				return common + `"turn_id":"t1","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"`
			}
			return `"hook_event_name":"?"`
		}),
		Want: map[Case]Wire{
			DenyShell:       {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + denyReason + `"}}`},
			AskShell:        {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + Contains(askReason) + `"}}`},
			AllowRewrite:    {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}`},
			SessionContext:  {Stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: plan"}}`},
			PostToolContext: {Stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"3 tests failed"}}`},
			KeepGoing:       {Stdout: `{"decision":"block","reason":"` + stopReason + `"}`},
			Nothing:         {},
			UnreadableTool:  {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"<contains:could not read>"}}`, Exit: 2, Stderr: "could not read"},
		},
	})
}

// TestSuiteCatchesWrongAnswers proves Run is not vacuous: an adapter whose
// expectations are wrong or incomplete must fail.
func TestSuiteCatchesWrongAnswers(t *testing.T) {
	if got := match(map[string]any{"a": "x"}, map[string]any{"a": "x", "b": "y"}, "$"); got == "" {
		t.Error("an extra key passed")
	}
	if got := match(map[string]any{"a": Contains("needle")}, map[string]any{"a": "hay"}, "$"); got == "" {
		t.Error("Contains matched a string without the needle")
	}
	if got := match(map[string]any{"a": Any}, map[string]any{"a": ""}, "$"); got == "" {
		t.Error("Any matched an empty string")
	}
	if got := match(map[string]any{"a": Contains("ee")}, map[string]any{"a": "needle"}, "$"); got != "" {
		t.Errorf("Contains did not match: %s", got)
	}
	if len(Cases()) != 8 {
		t.Errorf("Cases() = %v", Cases())
	}
}
