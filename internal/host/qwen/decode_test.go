package qwen

import (
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

// codec is Qwen Code's adapter for the shared decode checks; its captured
// payloads are in internal/host/hosttest/testdata (captured in-repo).
var codec = hosttest.Codec{Adapter: Adapter{}, SamplesDir: "qwen-code", ToolEvents: []string{"PreToolUse"}}

// unhandled are the Qwen events atreides deliberately leaves Unknown.
var unhandled = map[string]bool{"InstructionsLoaded": true, "PostToolBatch": true}

// TestDecodeCaptured decodes every payload Qwen Code 0.24.4 sent in the
// capture runs, and checks what each event must carry. The runs fired
// neither compaction event nor SessionEnd (a headless run fires none).
func TestDecodeCaptured(t *testing.T) {
	codec.Captured(t, unhandled, []string{
		"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
		"Stop", "SubagentStart", "SubagentStop", "Notification", "InstructionsLoaded", "PostToolBatch",
	}, checkKind)
}

// Every captured payload decodes exactly as encoding/json decodes it.
func TestSamplesDecodeAsBefore(t *testing.T) {
	hosttest.SamplesDecodeAsLoose[gemini.ToolInput](t, codec.SamplesDir)
}

func BenchmarkDecodeSamples(b *testing.B) { codec.Bench(b) }

func checkKind(t *testing.T, ev *event.Event, raw map[string]any) {
	t.Helper()
	if ev.PermissionMode != raw["permission_mode"] || ev.TranscriptPath != raw["transcript_path"] {
		t.Errorf("permission mode %q transcript %q", ev.PermissionMode, ev.TranscriptPath)
	}
	switch ev.Kind {
	case event.PreTool, event.PostTool:
		hosttest.CheckToolCall(t, ev, raw)
		if ev.Tool.Name == event.Other {
			t.Errorf("tool %q not mapped", ev.Tool.Raw)
		}
		hosttest.Carried(t, "tool use id", ev.ToolUseID, raw, "tool_use_id")
		if ev.Kind == event.PostTool {
			checkOutput(t, ev, raw)
		}
	case event.Stop, event.SubagentStop:
		hosttest.Carried(t, "last message", ev.LastMessage, raw, "last_assistant_message")
	case event.SubagentStart:
		hosttest.Carried(t, "agent type", ev.AgentType, raw, "agent_type")
		hosttest.Carried(t, "agent id", ev.AgentID, raw, "agent_id")
	case event.Notification:
		hosttest.Carried(t, "notification type", ev.Source, raw, "notification_type")
	}
}

func checkOutput(t *testing.T, ev *event.Event, raw map[string]any) {
	t.Helper()
	if _, failed := raw["error"]; failed != ev.Failed {
		t.Errorf("failed=%v, error present=%v", ev.Failed, failed)
	}
	if ev.Failed {
		hosttest.Carried(t, "error", ev.Output, raw, "error")
		return
	}
	if ev.Output == "" || ev.ReplacesOutput {
		t.Errorf("output %q, replaceable %v", ev.Output, ev.ReplacesOutput)
	}
	if ev.Tool.Raw == "write_file" && (len(ev.Tool.Added) != 1 || !ev.Tool.Added[0].IsNew(0)) {
		t.Errorf("write_file added %+v", ev.Tool.Added)
	}
}

// UserPromptSubmit is the user's only with submitted_prompt: the ones Qwen
// fires after tool results and after a Stop block are not prompts.
func TestUserPromptSubmitOnlyTyped(t *testing.T) {
	const common = `"session_id":"s","cwd":"/p","hook_event_name":"UserPromptSubmit","permission_mode":"yolo","prompt_id":"s########0",`
	for in, kind := range map[string]event.Kind{
		`{` + common + `"prompt":"fix it","submitted_prompt":"fix it"}`:       event.UserPrompt,
		`{` + common + `"prompt":"/review expanded","submitted_prompt":"/r"}`: event.UserPrompt,
		`{` + common + `"prompt":""}`:                                         event.Unknown,
		`{` + common + `"prompt":"atreides: 1 todo(s) still open"}`:           event.Unknown,
	} {
		ev, err := Decode([]byte(in), "", time.Unix(0, 0))
		if err != nil || ev.Kind != kind {
			t.Errorf("%s: kind %q err %v, want %q", in, ev.Kind, err, kind)
		}
	}
}

func TestDecodeProjectDir(t *testing.T) {
	in := []byte(`{"session_id":"s","cwd":"/p/sub","hook_event_name":"SessionStart","source":"startup"}`)
	ev, err := Adapter{}.Decode(in, func(k string) string {
		return map[string]string{"QWEN_PROJECT_DIR": "/p", "GEMINI_PROJECT_DIR": "/g"}[k]
	}, time.Unix(0, 0))
	if err != nil || ev.ProjectDir != "/p" || ev.Cwd != "/p/sub" {
		t.Fatalf("project %q cwd %q err %v; want QWEN_PROJECT_DIR", ev.ProjectDir, ev.Cwd, err)
	}
}

// TestDecodeUncapturedEvents covers the events the capture did not fire,
// with payloads shaped as the 0.24.4 bundle builds them.
func TestDecodeUncapturedEvents(t *testing.T) {
	const common = `"session_id":"s","transcript_path":"/t.jsonl","cwd":"/p","timestamp":"t","permission_mode":"yolo",`
	tests := []struct {
		in    string
		kind  event.Kind
		check func(*event.Event) bool
	}{
		{`{` + common + `"hook_event_name":"PreCompact","trigger":"manual","custom_instructions":""}`, event.PreCompact,
			func(e *event.Event) bool { return e.Source == "manual" }},
		{`{` + common + `"hook_event_name":"PostCompact","trigger":"auto"}`, event.PostCompact,
			func(e *event.Event) bool { return e.Source == "auto" }},
		{`{` + common + `"hook_event_name":"SessionEnd","reason":"prompt_input_exit"}`, event.SessionEnd,
			func(e *event.Event) bool { return e.Source == "prompt_input_exit" }},
		{`{` + common + `"hook_event_name":"PostToolUse","tool_name":"mcp__memory__store","tool_input":{},"tool_response":{"llmContent":[{"text":"a"},{"text":"b"}]},"tool_use_id":"c"}`, event.PostTool,
			func(e *event.Event) bool { return e.Tool.Name == "mcp:memory__store" && e.Output == "a\nb" }},
		{`{` + common + `"hook_event_name":"PostToolUse","tool_name":"edit","tool_input":{"file_path":"/p/a","old_string":"a","new_string":"# x\na"},"tool_response":{"llmContent":"ok","returnDisplay":{"originalContent":"a\n","newContent":"# x\na\n"}}}`, event.PostTool,
			func(e *event.Event) bool { return len(e.Tool.Added) == 1 && e.Tool.Added[0].IsNew(0) }},
		{`{` + common + `"hook_event_name":"PermissionRequest","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, event.Unknown, nil},
		{`{` + common + `"hook_event_name":"MessageDisplay","message_id":"m","displayed_text":"x","is_final":false}`, event.Unknown, nil},
	}
	for _, tt := range tests {
		ev, err := Decode([]byte(tt.in), "", time.Unix(0, 0))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if ev.Kind != tt.kind || (tt.check != nil && !tt.check(ev)) {
			t.Errorf("%s: decoded %+v", tt.in, ev)
		}
	}
}

func TestDecodeMalformed(t *testing.T) {
	codec.CheckMalformed(t, []hosttest.Malformed{
		{Name: "empty"},
		{Name: "not json", In: "hello"},
		{Name: "truncated pre tool", In: `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"rm -`, Event: "PreToolUse"},
		{Name: "no event name", In: `{"session_id":"s"}`},
		{Name: "tool input not an object", In: `{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":"rm -rf /"}`, Event: "PreToolUse"},
		{Name: "pre tool without tool", In: `{"hook_event_name":"PreToolUse"}`, Event: "PreToolUse"},
		{Name: "response not an object", In: `{"hook_event_name":"PostToolUse","tool_name":"read_file","tool_input":{},"tool_response":"x"}`, Event: "PostToolUse"},
	})
}

func TestNormalizeTool(t *testing.T) {
	hosttest.CheckTools(t, []hosttest.Tool{
		{Name: "run_shell_command", Input: `{"command":"ls -la","description":"list"}`, Want: event.Shell, Command: "ls -la"},
		{Name: "read_file", Input: `{"file_path":"/p/a.go"}`, Want: event.Read, Paths: []string{"/p/a.go"}},
		{Name: "write_file", Input: `{"file_path":"/p/n.txt","content":"x"}`, Want: event.Write, Paths: []string{"/p/n.txt"}},
		{Name: "edit", Input: `{"file_path":"/p/n.txt","old_string":"a","new_string":"b"}`, Want: event.Edit, Paths: []string{"/p/n.txt"}},
		{Name: "glob", Input: `{"pattern":"**/.env*","path":"/p"}`, Want: event.Search, Paths: []string{"/p", "**/.env*"}},
		{Name: "grep_search", Input: `{"pattern":"x","path":"/p/src"}`, Want: event.Search, Paths: []string{"/p/src"}},
		{Name: "list_directory", Input: `{"path":"/p/src"}`, Want: event.Search, Paths: []string{"/p/src"}},
		{Name: "web_fetch", Input: `{"url":"https://example.com","prompt":"x"}`, Want: event.Fetch},
		{Name: "web_search", Input: `{"query":"go"}`, Want: event.Fetch},
		{Name: "agent", Input: `{"description":"d","prompt":"p","subagent_type":"general-purpose"}`, Want: event.Delegate},
		{Name: "todo_write", Input: `{"todos":[{"id":"1","content":"c","status":"pending"}]}`, Want: event.Todo},
		{Name: "skill", Input: `{"skill":"x"}`, Want: event.Other},
		{Name: "mcp__github__create_issue", Input: `{"title":"x"}`, Want: "mcp:github__create_issue"},
		{Name: "run_shell_command", Input: `{"COMMAND":"rm -rf ~"}`, Want: event.Shell},
	}, NormalizeTool)
}

func FuzzDecode(f *testing.F) {
	codec.Fuzz(f,
		`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"Stop","stop_hook_active":true,"last_assistant_message":"done"}`,
		`{"hook_event_name":"UserPromptSubmit","prompt":"p","submitted_prompt":"p"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"comm`,
	)
}

// run_shell_command and monitor run their command in "directory" when it
// is given (Qwen 0.24.4's ShellTool: cwd = params.directory): the guard
// must read the command's relative paths from there, or
// `echo {} > settings.json` in <project>/.qwen passes for a write to
// <project>/settings.json.
func TestDecodeShellDirectory(t *testing.T) {
	for _, tool := range []string{"run_shell_command", "monitor"} {
		in := `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"` + tool + `",` +
			`"tool_input":{"command":"echo {} > settings.json","directory":"/p/.qwen"},"tool_use_id":"t"}`
		ev, err := Adapter{}.Decode([]byte(in), func(string) string { return "" }, time.Unix(0, 0))
		if err != nil || ev.Tool.Name != event.Shell || ev.Cwd != "/p/.qwen" || ev.Tool.Command != "echo {} > settings.json" {
			t.Errorf("%s: cwd %q tool %+v, %v", tool, ev.Cwd, ev.Tool, err)
		}
	}
	// The directory under two spellings is refused, not guessed.
	in := `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"run_shell_command",` +
		`"tool_input":{"command":"ls","directory":"/p","Directory":"/p/.qwen"},"tool_use_id":"t"}`
	if _, err := (Adapter{}).Decode([]byte(in), func(string) string { return "" }, time.Unix(0, 0)); err == nil {
		t.Error("a case-variant directory decoded")
	}
}
