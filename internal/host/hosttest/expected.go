package hosttest

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// The reasons and texts of the suite's table, as each host must carry them.
const (
	denyReason = "rm -rf would delete victim"
	askReason  = "force push rewrites history"
	stopReason = "todos open: write the report"
)

// JSONString is s as a JSON string, quotes and escapes included.
func JSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// payloadFunc builds payloads from the fields every host shares; fields
// maps a kind to the host's event name and the event's own fields, given
// the command as a JSON string.
func payloadFunc(fields func(kind event.Kind, cmd string) string) func(event.Kind, string) []byte {
	return func(kind event.Kind, cmd string) []byte {
		return []byte(`{"session_id":"s","transcript_path":"/home/t.jsonl","cwd":"/proj",` + fields(kind, JSONString(cmd)) + `}`)
	}
}

// claudeShapes is what a host speaking Claude's output shapes must answer;
// such hosts differ only in how they carry an ask: its decision and the
// reason as matched.
func claudeShapes(askDecision, askReason string) map[Case]Wire {
	return map[Case]Wire{
		DenyShell:       {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + denyReason + `"}}`},
		AskShell:        {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"` + askDecision + `","permissionDecisionReason":"` + askReason + `"}}`},
		AllowRewrite:    {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}`},
		SessionContext:  {Stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: plan"}}`},
		PostToolContext: {Stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"3 tests failed"}}`},
		KeepGoing:       {Stdout: `{"decision":"block","reason":"` + stopReason + `"}`},
		Nothing:         {},
		UnreadableTool:  {Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"<contains:could not read>"}}`, Exit: 2, Stderr: "could not read"},
	}
}

// Expected is every host's part in the suite, by host name: what it sends
// and what it must answer. internal/host/all runs the suite over its registry
// and fails for a registered host without an entry here.
var Expected = map[string]Expectations{
	"claude": {
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
		Want: claudeShapes("ask", askReason),
	},

	// Gemini has no ask and no hookSpecificOutput permission field: every
	// refusal is a top-level decision "deny", and keep-going is a deny of
	// AfterAgent (Gemini retries the turn with the reason as the prompt).
	"gemini": {
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
			DenyShell:    {Stdout: `{"decision":"deny","reason":"` + denyReason + `"}`},
			AskShell:     {Stdout: `{"decision":"deny","reason":"` + Contains(askReason) + `"}`},
			AllowRewrite: {Stdout: `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls -la"}}}`},
			// Fenced, so BeforeAgent can take it off the -p prompt again.
			SessionContext:  {Stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"\u003c!-- atreides:start --\u003e\nphase: plan\n\u003c!-- /atreides:start --\u003e"}}`},
			PostToolContext: {Stdout: `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"3 tests failed"}}`},
			KeepGoing:       {Stdout: `{"decision":"deny","reason":"` + stopReason + `"}`},
			Nothing:         {},
			UnreadableTool:  {Stdout: `{"decision":"deny","reason":"<contains:could not read>"}`, Exit: 2, Stderr: "could not read"},
		},
	},

	// Codex speaks Claude's shapes but rejects "ask" (so it becomes a deny)
	// and sets no project variable (the project is the cwd).
	"codex": {
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
		Want: claudeShapes("deny", Contains(askReason)),
	},

	// Qwen Code speaks Claude's shapes and sends "ask" on (a headless run
	// refuses the call with the reason shown); it cannot apply a rewrite
	// under --yolo, so a rewrite is refused with the input to call again
	// with. Its tools are Gemini CLI's.
	"qwen": {
		Env: map[string]string{"QWEN_PROJECT_DIR": "/proj", "CLAUDE_PROJECT_DIR": "/proj", "GEMINI_PROJECT_DIR": "/proj"},
		Payload: payloadFunc(func(kind event.Kind, cmd string) string {
			const common = `"timestamp":"2026-11-29T18:19:48.452Z","permission_mode":"yolo",`
			const call = `"prompt_id":"s########0","tool_use_id":"toolu_1","tool_call_id":"call_1"`
			switch kind {
			case event.PreTool:
				return common + `"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":` + cmd + `,"description":"d"},` + call
			case event.PostTool:
				return common + `"hook_event_name":"PostToolUse","tool_name":"run_shell_command","tool_input":{"command":` + cmd + `},"tool_response":{"llmContent":"Output: FAIL","returnDisplay":""},` + call + `,"duration_ms":39`
			case event.SessionStart:
				return common + `"hook_event_name":"SessionStart","source":"startup","model":"fake-model"`
			case event.Stop:
				return common + `"hook_event_name":"Stop","prompt_id":"s########0","stop_hook_active":false,"last_assistant_message":"done","background_tasks":[],"crons":[],"context_usage":0.0005,"context_limit":200000,"input_tokens":100`
			}
			return `"hook_event_name":"?"`
		}),
		Want: func() map[Case]Wire {
			w := claudeShapes("ask", askReason)
			w[AllowRewrite] = Wire{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + Contains("cannot apply") + `"}}`}
			return w
		}(),
	},

	// GitHub Copilot CLI writes camelCase payloads that name no event (the
	// adapter tells it by their keys) and reads a flat answer object: ask
	// is sent as ask (Copilot refuses it in -p, showing the reason), a
	// rewrite is modifiedArgs without an allow, keep-going is agentStop's
	// decision block.
	"copilot": {
		Env: map[string]string{"COPILOT_PROJECT_DIR": "/proj", "CLAUDE_PROJECT_DIR": "/proj", "COPILOT_CLI": "1"},
		Payload: func(kind event.Kind, cmd string) []byte {
			const common = `{"sessionId":"s","timestamp":1795937124267,"cwd":"/proj",`
			switch kind {
			case event.PreTool:
				return []byte(common + `"toolName":"bash","toolArgs":{"command":` + JSONString(cmd) + `,"description":"d"}}`)
			case event.PostTool:
				return []byte(common + `"toolName":"bash","toolArgs":{"command":` + JSONString(cmd) + `,"description":"d"},"toolResult":{"resultType":"success","textResultForLlm":"FAIL\n<shellId: 0 completed with exit code 1>"}}`)
			case event.SessionStart:
				return []byte(common + `"source":"new","initialPrompt":"do it"}`)
			case event.Stop:
				return []byte(common + `"transcriptPath":"/home/.copilot/session-state/s/events.jsonl","stopReason":"end_turn","stop_hook_active":false}`)
			}
			return []byte(`{"?":1}`)
		},
		Want: map[Case]Wire{
			DenyShell:       {Stdout: `{"permissionDecision":"deny","permissionDecisionReason":"` + denyReason + `"}`},
			AskShell:        {Stdout: `{"permissionDecision":"ask","permissionDecisionReason":"` + askReason + `"}`},
			AllowRewrite:    {Stdout: `{"modifiedArgs":{"command":"ls -la"}}`},
			SessionContext:  {Stdout: `{"additionalContext":"phase: plan"}`},
			PostToolContext: {Stdout: `{"additionalContext":"3 tests failed"}`},
			KeepGoing:       {Stdout: `{"decision":"block","reason":"` + stopReason + `"}`},
			Nothing:         {},
			UnreadableTool:  {Stdout: `{"permissionDecision":"deny","permissionDecisionReason":"<contains:could not read>"}`, Exit: 2, Stderr: "could not read"},
		},
	},

	// Cline names no cwd: the workspace root is the project. Its shell
	// tool takes a list of commands; a refusal replaces them with one
	// that prints the reason and fails (a cancel would end the run), with
	// the reason as context too; an ask is such a refusal. Its TaskStart
	// and TaskComplete answers are not read (the session's context waits
	// for the first tool event); a tool call that cannot be read is
	// cancelled.
	"cline": {
		Payload: func(kind event.Kind, cmd string) []byte {
			return clinePayload(kind, `{"commands":[`+JSONString(cmd)+`]}`)
		},
		// The attacks on "command" go to its key here, "commands".
		Attack: func(inject string) []byte {
			inject = strings.NewReplacer(`"COMMAND":"ls"`, `"COMMANDS":["ls"]`, `"command":"ls"`, `"commands":["ls"]`).Replace(inject)
			return clinePayload(event.PreTool, `{"commands":["rm -rf ~"]`+inject+`}`)
		},
		Want: map[Case]Wire{
			DenyShell:       clineRefusal(denyReason),
			AskShell:        clineRefusal(host.AskDenied("a Cline hook cannot ask the user", askReason)),
			AllowRewrite:    {Stdout: `{"overrideInput":{"command":"ls -la"}}`},
			SessionContext:  {},
			PostToolContext: {Stdout: `{"context":"3 tests failed"}`},
			KeepGoing:       {},
			Nothing:         {},
			UnreadableTool:  {Stdout: `{"cancel":true,"errorMessage":"<contains:could not read>"}`, Exit: 2, Stderr: "could not read"},
		},
	},

	// OpenCode has no hook process: a payload is a serve request without its
	// envelope ({method, params}), the answer is what the plugin applies.
	// There is no ask (permission.ask never fires in 1.18.33), so an ask is a
	// block that says so; session context goes into the system prompt; a
	// keep-going is a prompt the plugin sends on session.idle; a tool call
	// that cannot be read is blocked by a throw, not an exit code.
	"opencode": openCodePlugin(),
	// Kilo Code runs OpenCode's plugin and serve (--host kilo): the same
	// requests, the same answers (7.7.7 has no ask a plugin can raise).
	"kilo": openCodePlugin(),
}

// openCodePlugin is what the OpenCode plugin sends and must be answered,
// in OpenCode and in the forks that run it.
func openCodePlugin() Expectations {
	return Expectations{
		Payload: func(kind event.Kind, cmd string) []byte {
			const dir = `"directory":"/proj",`
			switch kind {
			case event.PreTool:
				return []byte(`{"method":"tool.before","params":{` + dir + `"input":{"tool":"bash","sessionID":"s","callID":"call_1"},"output":{"args":{"command":` + JSONString(cmd) + `,"description":"d"}}}}`)
			case event.PostTool:
				return []byte(`{"method":"tool.after","params":{` + dir + `"input":{"tool":"bash","sessionID":"s","callID":"call_1","args":{"command":` + JSONString(cmd) + `}},"output":{"title":"t","output":"FAIL\n","metadata":{"exit":1}}}}`)
			case event.SessionStart:
				return []byte(`{"method":"system.transform","params":{` + dir + `"input":{"sessionID":"s","model":{"id":"m"}},"output":{"system":["You are opencode"]}}}`)
			case event.Stop:
				return []byte(`{"method":"event","params":{` + dir + `"input":{"event":{"id":"evt_1","type":"session.idle","properties":{"sessionID":"s"}}}}}`)
			}
			return []byte(`{"method":"?"}`)
		},
		Want: map[Case]Wire{
			DenyShell:       {Stdout: `{"block":"` + denyReason + `"}`},
			AskShell:        {Stdout: `{"block":"` + Contains(askReason) + `"}`},
			AllowRewrite:    {Stdout: `{"args":{"command":"ls -la"}}`},
			SessionContext:  {Stdout: `{"system":["phase: plan"]}`},
			PostToolContext: {Stdout: `{"append":"3 tests failed"}`},
			KeepGoing:       {Stdout: `{"continue":"` + stopReason + `"}`},
			Nothing:         {},
			UnreadableTool:  {Stdout: `{"block":"<contains:could not read>"}`},
		},
	}
}

// clineRefusal is Cline's answer refusing a run_commands call: one command
// printing the reason, and the reason as context.
func clineRefusal(reason string) Wire {
	why := "atreides blocked this call: " + reason
	cmd := "printf '%s\\n' '" + why + "' >&2; exit 1"
	return Wire{Stdout: `{"overrideInput":{"commands":[` + JSONString(cmd) + `]},"context":` + JSONString(why) + `}`}
}

// clinePayload is Cline 3.0.65's payload of an event of the kind, its
// tool call (if any) run_commands with input.
func clinePayload(kind event.Kind, input string) []byte {
	const common = `"clineVersion":"","timestamp":"2026-11-29T18:18:05.293Z","taskId":"s","sessionContext":{"rootSessionId":"s"},"workspaceRoots":["/proj"],"workspaceInfo":{"rootPath":"/proj","hint":"proj"},"userId":"unknown","agent_id":"agent_1","parent_agent_id":null,`
	var fields string
	switch kind {
	case event.PreTool:
		fields = `"hookName":"tool_call","iteration":1,"tool_call":{"id":"call_1","name":"run_commands","input":` + input + `},"preToolUse":{"toolName":"run_commands","parameters":{"commands":"[]"}}`
	case event.PostTool:
		fields = `"hookName":"tool_result","iteration":1,"tool_result":{"id":"call_1","name":"run_commands","input":` + input + `,"output":[{"query":"q","result":"FAIL\n","success":true}],"durationMs":17},"postToolUse":{"toolName":"run_commands","parameters":{"commands":"[]"},"result":"[]","success":true,"executionTimeMs":17}`
	case event.SessionStart:
		fields = `"hookName":"agent_start","taskStart":{"taskMetadata":{}}`
	case event.Stop:
		fields = `"hookName":"agent_end","iteration":2,"turn":{"outputText":"done","status":"completed"},"taskComplete":{"taskMetadata":{}}`
	default:
		fields = `"hookName":"?"`
	}
	return []byte("{" + common + fields + "}")
}
