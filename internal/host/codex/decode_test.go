package codex

import (
	"encoding/json"
	"errors"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

// samplesDir is the captured Codex payloads, vendored in
// internal/host/hosttest/testdata.
func samplesDir(t *testing.T) string {
	return hosttest.Samples(t, "host-samples", "codex", "captured")
}

// TestDecodeCaptured decodes every payload Codex 0.169.0 sent in the
// capture runs, and checks what each event must carry.
func TestDecodeCaptured(t *testing.T) {
	dir := samplesDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*", "*", "hooks", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, f := range files {
		if strings.HasSuffix(f, ".env.json") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatalf("%s: sample is not JSON: %v", f, err)
		}
		name, _ := raw["hook_event_name"].(string)
		seen[name]++
		rel, _ := filepath.Rel(dir, f)
		t.Run(rel, func(t *testing.T) {
			ev, err := Decode(data, time.Unix(0, 0))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if ev.HostEvent != name || ev.Kind == event.Unknown || ev.Host != Host {
				t.Fatalf("event %q decoded as %q/%q", name, ev.HostEvent, ev.Kind)
			}
			if ev.SessionID != raw["session_id"] || ev.Cwd != raw["cwd"] || ev.ProjectDir != "" || ev.Cwd == "" {
				t.Errorf("ids: session %q cwd %q project %q", ev.SessionID, ev.Cwd, ev.ProjectDir)
			}
			if ev.PermissionMode != raw["permission_mode"] || ev.TranscriptPath != raw["transcript_path"] {
				t.Errorf("permission mode %q transcript %q", ev.PermissionMode, ev.TranscriptPath)
			}
			checkKind(t, ev, raw)
			ans := Encode(ev, &event.Decision{Verdict: event.Deny, Reason: "r", Block: true, BlockReason: "b", Context: []event.Entry{{Text: "c"}}})
			if len(ans.Stdout) > 0 && !json.Valid(ans.Stdout) {
				t.Errorf("invalid JSON answer %q", ans.Stdout)
			}
		})
	}
	for _, want := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"} {
		if seen[want] == 0 {
			t.Errorf("no captured %s payload decoded (saw %v)", want, seen)
		}
	}
}

func checkKind(t *testing.T, ev *event.Event, raw map[string]any) {
	t.Helper()
	switch ev.Kind {
	case event.PreTool, event.PostTool:
		in, _ := raw["tool_input"].(map[string]any)
		if ev.Tool.Raw != "Bash" || ev.Tool.Name != event.Shell || ev.Tool.Command == "" || ev.Tool.Command != in["command"] {
			t.Errorf("tool %q normalized to %q, command %q", ev.Tool.Raw, ev.Tool.Name, ev.Tool.Command)
		}
		if ev.ToolUseID == "" || ev.ToolUseID != raw["tool_use_id"] {
			t.Errorf("tool use id %q", ev.ToolUseID)
		}
		if ev.Kind == event.PostTool && (ev.Output == "" || ev.Output != raw["tool_response"]) {
			t.Errorf("output %q, response %v", ev.Output, raw["tool_response"])
		}
	case event.SessionStart:
		if ev.Source == "" || ev.Source != raw["source"] {
			t.Errorf("SessionStart source %q", ev.Source)
		}
	case event.UserPrompt:
		if ev.Prompt == "" || ev.Prompt != raw["prompt"] {
			t.Errorf("UserPromptSubmit prompt %q", ev.Prompt)
		}
	case event.Stop:
		if active, _ := raw["stop_hook_active"].(bool); active != ev.StopHookActive {
			t.Errorf("stop_hook_active %v, decoded %v", active, ev.StopHookActive)
		}
		if ev.LastMessage == "" || ev.LastMessage != raw["last_assistant_message"] {
			t.Errorf("last message %q", ev.LastMessage)
		}
	}
}

// TestDecodeSchemaEvents covers the events the capture did not fire, with
// payloads shaped by the input schemas built into Codex 0.169.0.
func TestDecodeSchemaEvents(t *testing.T) {
	const common = `"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","model":"gpt","permission_mode":"default",`
	tests := []struct {
		in   string
		kind event.Kind
		// check inspects the decoded event; empty means kind only.
		check func(*event.Event) bool
	}{
		{`{` + common + `"hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"worker"}`, event.SubagentStart,
			func(e *event.Event) bool { return e.InSubagent() && e.AgentType == "worker" }},
		{`{` + common + `"hook_event_name":"SubagentStop","agent_id":"a1","agent_type":"worker","agent_transcript_path":null,"stop_hook_active":false,"last_assistant_message":null}`, event.SubagentStop,
			func(e *event.Event) bool { return e.AgentID == "a1" && e.LastMessage == "" }},
		{`{` + common + `"hook_event_name":"PreCompact","trigger":"manual"}`, event.PreCompact,
			func(e *event.Event) bool { return e.Source == "manual" }},
		{`{` + common + `"hook_event_name":"PostCompact","trigger":"auto"}`, event.PostCompact,
			func(e *event.Event) bool { return e.Source == "auto" }},
		{`{"session_id":"s","cwd":"/p","transcript_path":null,"hook_event_name":"SessionEnd","reason":"exit"}`, event.SessionEnd,
			func(e *event.Event) bool { return e.Source == "exit" }},
		{`{` + common + `"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"curl example.com"}}`, event.PermissionRequest,
			func(e *event.Event) bool { return e.Tool.Command == "curl example.com" }},
		{`{` + common + `"hook_event_name":"PostToolUse","tool_name":"mcp__memory__store","tool_input":{},"tool_response":{"content":[{"type":"text","text":"ok"}]},"tool_use_id":"c"}`, event.PostTool,
			func(e *event.Event) bool {
				return e.Tool.Name == "mcp:memory__store" && strings.Contains(e.Output, `"ok"`)
			}},
		{`{` + common + `"hook_event_name":"PreToolUse","agent_id":"a1","agent_type":"worker","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"c"}`, event.PreTool,
			func(e *event.Event) bool { return e.InSubagent() }},
		{`{` + common + `"hook_event_name":"Interrupt"}`, event.Unknown, nil},
	}
	for _, tt := range tests {
		ev, err := Decode([]byte(tt.in), time.Unix(0, 0))
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
	tests := []struct {
		name, in, event string
	}{
		{"empty", "", ""},
		{"not json", "hello", ""},
		{"truncated pre tool", `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -`, "PreToolUse"},
		{"no event name", `{"session_id":"s"}`, ""},
		{"tool input not an object", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"rm -rf /"}`, "PreToolUse"},
		{"pre tool without tool", `{"hook_event_name":"PreToolUse"}`, "PreToolUse"},
		{"permission request without tool", `{"hook_event_name":"PermissionRequest"}`, "PermissionRequest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Decode([]byte(tt.in), time.Now())
			if !errors.Is(err, host.ErrMalformed) {
				t.Fatalf("err = %v, want host.ErrMalformed", err)
			}
			if ev.HostEvent != tt.event {
				t.Errorf("recovered event %q, want %q", ev.HostEvent, tt.event)
			}
		})
	}
}

func TestNormalizeTool(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: src/app.go\n@@\n-a\n+b\n*** Move to: src/main.go\n*** Add File: docs/new.md\n+hello\n*** Delete File: old.txt\n*** Update File: src/app.go\n*** End Patch\n"
	tests := []struct {
		name, input string
		want        event.ToolName
		command     string
		paths       []string
	}{
		{"Bash", `{"command":"ls -la"}`, event.Shell, "ls -la", nil},
		{"apply_patch", mustJSON(map[string]string{"command": patch}), event.Edit, "", []string{"src/app.go", "src/main.go", "docs/new.md", "old.txt"}},
		{"apply_patch", `{"command":"  *** Add File: indented.txt\r\n"}`, event.Edit, "", []string{"indented.txt"}},
		{"apply_patch", `{}`, event.Edit, "", nil},
		{"mcp__memory__store", `{}`, "mcp:memory__store", "", nil},
		{"mcp__shell__shell_execute", `{"command":["ls","-la"],"path":5}`, "mcp:shell__shell_execute", "", nil},
		{"spawn_agent", `{"agent_type":"explorer","message":"look"}`, event.Delegate, "", nil},
		// Codex 0.169.0's hooks name an MCP tool mcp__<server>__<tool>,
		// though its model sees <tool> in the namespace mcp__<server>.
		{"mcp__atreides__todo_add", `{}`, "mcp:atreides__todo_add", "", nil},
		{"web_search", `{}`, event.Other, "", nil},
	}
	for _, tt := range tests {
		got, err := NormalizeTool(tt.name, json.RawMessage(tt.input))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got.Name != tt.want || got.Command != tt.command || strings.Join(got.Paths, ",") != strings.Join(tt.paths, ",") {
			t.Errorf("%s %s: got %q %q %v, want %q %q %v", tt.name, tt.input, got.Name, got.Command, got.Paths, tt.want, tt.command, tt.paths)
		}
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`))
	f.Add([]byte(`{"hook_event_name":"Stop","stop_hook_active":true,"last_assistant_message":null}`))
	f.Add([]byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":"x\n"}`))
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Add File: a"}}`))
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"comm`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := Decode(data, time.Unix(0, 0))
		if ev == nil {
			t.Fatal("nil event")
		}
		if err != nil && !errors.Is(err, host.ErrMalformed) {
			t.Fatalf("error not host.ErrMalformed: %v", err)
		}
		ans := Encode(ev, &event.Decision{Verdict: event.Deny, Reason: "r", Context: []event.Entry{{Text: "c"}}})
		if len(ans.Stdout) > 0 && !json.Valid(ans.Stdout) {
			t.Fatalf("invalid JSON answer %q", ans.Stdout)
		}
		if err != nil && (ev.HostEvent == "PreToolUse" || ev.HostEvent == "PermissionRequest") {
			if u := (Adapter{}).Unreadable(ev.HostEvent, err); u.Exit != 2 || !json.Valid(u.Stdout) {
				t.Fatalf("unreadable tool call not blocked: %+v", u)
			}
		}
	})
}
