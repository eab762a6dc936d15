package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

// codec is Codex's adapter for the shared decode checks; its captured
// payloads are vendored in internal/host/hosttest/testdata.
var codec = hosttest.Codec{Adapter: Adapter{}, SamplesDir: "codex", ToolEvents: []string{"PreToolUse", "PermissionRequest"}}

// TestDecodeCaptured decodes every payload Codex 0.169.0 and 0.171.0 sent
// in the capture runs, and checks what each event must carry and that
// each matches its input schema (testdata/schema).
func TestDecodeCaptured(t *testing.T) {
	schemas := map[string]*jsonschema.Schema{}
	codec.Captured(t, nil, []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"}, func(t *testing.T, ev *event.Event, raw map[string]any) {
		if schemas[ev.HostEvent] == nil {
			schemas[ev.HostEvent] = compileSchema(t, ev.HostEvent, "input")
		}
		if err := schemas[ev.HostEvent].Validate(raw); err != nil {
			t.Errorf("payload does not match its input schema: %v", err)
		}
		if ev.Cwd == "" {
			t.Error("no cwd")
		}
		if ev.PermissionMode != raw["permission_mode"] || ev.TranscriptPath != raw["transcript_path"] {
			t.Errorf("permission mode %q transcript %q", ev.PermissionMode, ev.TranscriptPath)
		}
		checkKind(t, ev, raw)
	})
}

// Every captured payload decodes exactly as encoding/json decodes it:
// real payloads have exact, unique keys, so strict decoding changes
// nothing for them.
func TestSamplesDecodeAsBefore(t *testing.T) {
	hosttest.SamplesDecodeAsLoose[toolInput](t, codec.SamplesDir)
}

func BenchmarkDecodeSamples(b *testing.B) { codec.Bench(b) }

func checkKind(t *testing.T, ev *event.Event, raw map[string]any) {
	t.Helper()
	switch ev.Kind {
	case event.PreTool, event.PostTool:
		// The capture ran shell commands and one spawn_agent (which
		// 0.171.0 hooks, with the call's arguments as its input).
		hosttest.CheckToolCall(t, ev, raw)
		if (ev.Tool.Raw != "Bash" || ev.Tool.Name != event.Shell) && (ev.Tool.Raw != "spawn_agent" || ev.Tool.Name != event.Delegate) {
			t.Errorf("tool %q normalized to %q", ev.Tool.Raw, ev.Tool.Name)
		}
		hosttest.Carried(t, "tool use id", ev.ToolUseID, raw, "tool_use_id")
		// A command that printed nothing has "" as its response.
		if ev.Kind == event.PostTool && raw["tool_response"] != "" {
			hosttest.Carried(t, "output", ev.Output, raw, "tool_response")
		}
	case event.Stop:
		hosttest.Carried(t, "last message", ev.LastMessage, raw, "last_assistant_message")
	}
}

// TestDecodeSchemaEvents covers the events the capture did not fire, with
// payloads shaped by the input schemas built into Codex 0.169.0 (the same
// in 0.171.0; each is checked against testdata/schema).
func TestDecodeSchemaEvents(t *testing.T) {
	const common = `"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","model":"gpt","permission_mode":"default",`
	const compact = `"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","model":"gpt",`
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
		// The compaction events carry no permission_mode.
		{`{` + compact + `"hook_event_name":"PreCompact","trigger":"manual"}`, event.PreCompact,
			func(e *event.Event) bool { return e.Source == "manual" }},
		{`{` + compact + `"hook_event_name":"PostCompact","trigger":"auto"}`, event.PostCompact,
			func(e *event.Event) bool { return e.Source == "auto" }},
		// "other" is the only reason 0.171.0's schema allows.
		{`{"session_id":"s","cwd":"/p","transcript_path":null,"hook_event_name":"SessionEnd","reason":"other"}`, event.SessionEnd,
			func(e *event.Event) bool { return e.Source == "other" }},
		{`{` + common + `"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"curl example.com"}}`, event.PermissionRequest,
			func(e *event.Event) bool { return e.Tool.Command == "curl example.com" }},
		{`{` + common + `"hook_event_name":"PostToolUse","tool_name":"mcp__memory__store","tool_input":{},"tool_response":{"content":[{"type":"text","text":"ok"}]},"tool_use_id":"c"}`, event.PostTool,
			func(e *event.Event) bool {
				return e.Tool.Name == "mcp:memory__store" && strings.Contains(e.Output, `"ok"`)
			}},
		{`{` + common + `"hook_event_name":"PreToolUse","agent_id":"a1","agent_type":"worker","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"c"}`, event.PreTool,
			func(e *event.Event) bool { return e.InSubagent() }},
		{`{` + common + `"hook_event_name":"Interrupt"}`, event.Unknown, nil},
		// Claude Code's events that Codex does not have.
		{`{` + common + `"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"ls"}}`, event.Unknown, nil},
		{`{` + common + `"hook_event_name":"Notification"}`, event.Unknown, nil},
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
		checkInputSchema(t, ev.HostEvent, tt.in)
	}
}

// checkInputSchema checks a payload against its event's input schema,
// where Codex has the event.
func checkInputSchema(t *testing.T, hostEvent, payload string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(schemaDir, schemaName(hostEvent)+".command.input.schema.json")); err != nil {
		return // one of Claude Code's events
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	if err := compileSchema(t, hostEvent, "input").Validate(inst); err != nil {
		t.Errorf("%s does not match its input schema: %v", payload, err)
	}
}

func TestDecodeMalformed(t *testing.T) {
	codec.CheckMalformed(t, []hosttest.Malformed{
		{Name: "empty"},
		{Name: "not json", In: "hello"},
		{Name: "truncated pre tool", In: `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -`, Event: "PreToolUse"},
		{Name: "no event name", In: `{"session_id":"s"}`},
		{Name: "tool input not an object", In: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"rm -rf /"}`, Event: "PreToolUse"},
		{Name: "pre tool without tool", In: `{"hook_event_name":"PreToolUse"}`, Event: "PreToolUse"},
		{Name: "permission request without tool", In: `{"hook_event_name":"PermissionRequest"}`, Event: "PermissionRequest"},
	})
}

func TestNormalizeTool(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: src/app.go\n@@\n-a\n+b\n*** Move to: src/main.go\n*** Add File: docs/new.md\n+hello\n*** Delete File: old.txt\n*** Update File: src/app.go\n*** End Patch\n"
	hosttest.CheckTools(t, []hosttest.Tool{
		{Name: "Bash", Input: `{"command":"ls -la"}`, Want: event.Shell, Command: "ls -la"},
		{Name: "apply_patch", Input: mustJSON(map[string]string{"command": patch}), Want: event.Edit, Paths: []string{"src/app.go", "src/main.go", "docs/new.md", "old.txt"}},
		{Name: "apply_patch", Input: `{"command":"  *** Add File: indented.txt\r\n"}`, Want: event.Edit, Paths: []string{"indented.txt"}},
		{Name: "apply_patch", Input: `{}`, Want: event.Edit},
		{Name: "mcp__memory__store", Input: `{}`, Want: "mcp:memory__store"},
		{Name: "mcp__shell__shell_execute", Input: `{"command":["ls","-la"],"path":5}`, Want: "mcp:shell__shell_execute"},
		{Name: "spawn_agent", Input: `{"agent_type":"explorer","message":"look"}`, Want: event.Delegate},
		// Codex 0.169.0's hooks name an MCP tool mcp__<server>__<tool>,
		// though its model sees <tool> in the namespace mcp__<server>.
		{Name: "mcp__atreides__todo_add", Input: `{}`, Want: "mcp:atreides__todo_add"},
		{Name: "web_search", Input: `{}`, Want: event.Other},
		// A key that differs from "command" only in case is not the
		// command: the host does not run it.
		{Name: "Bash", Input: `{"COMMAND":"rm -rf ~"}`, Want: event.Shell},
	}, NormalizeTool)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func FuzzDecode(f *testing.F) {
	codec.Fuzz(f,
		`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"Stop","stop_hook_active":true,"last_assistant_message":null}`,
		`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":"x\n"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Add File: a"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"comm`,
	)
}
