package claude

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

// codec is Claude Code's adapter for the shared decode checks; its
// captured payloads are vendored in internal/host/hosttest/testdata.
var codec = hosttest.Codec{Adapter: Adapter{}, SamplesDir: "claude-code", ToolEvents: []string{"PreToolUse", "PermissionRequest"}}

// TestDecodeCaptured decodes every payload Claude Code 2.1.197, 2.1.330
// and 2.1.332 sent in the capture runs, and checks what each event must
// carry.
func TestDecodeCaptured(t *testing.T) {
	samples := codec.Captured(t, nil, nil, checkKind)
	versions := map[string]int{}
	for _, s := range samples {
		// <version>/<run>/hooks/<payload>.json
		versions[strings.Split(filepath.ToSlash(s.Rel), "/")[0]]++
	}
	if len(samples) < 150 || len(versions) != 3 {
		t.Fatalf("decoded %d payloads from versions %v; want the three captured versions", len(samples), versions)
	}
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
	case event.PreTool, event.PermissionRequest, event.PostTool:
		hosttest.CheckToolCall(t, ev, raw)
		if ev.HostEvent == "PostToolUseFailure" && (!ev.Failed || ev.Error == "") {
			t.Errorf("failure not marked: failed=%v error=%q", ev.Failed, ev.Error)
		}
	case event.Stop, event.SubagentStop:
		hosttest.CheckStopHookActive(t, ev, raw)
		if ev.LastMessage != raw["last_assistant_message"] {
			t.Errorf("last message %q", ev.LastMessage)
		}
	case event.SubagentStart:
		if ev.AgentID == "" || !ev.InSubagent() {
			t.Error("subagent without agent_id")
		}
	}
}

func TestDecodeMalformed(t *testing.T) {
	codec.CheckMalformed(t, []hosttest.Malformed{
		{Name: "empty"},
		{Name: "not json", In: "hello"},
		{Name: "truncated pre tool", In: `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -`, Event: "PreToolUse"},
		{Name: "truncated spaces", In: `{"hook_event_name" :  "PermissionRequest", "tool_`, Event: "PermissionRequest"},
		{Name: "no event name", In: `{"session_id":"s"}`},
		{Name: "tool input not an object", In: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"rm -rf /"}`, Event: "PreToolUse"},
		{Name: "pre tool without tool", In: `{"hook_event_name":"PreToolUse"}`, Event: "PreToolUse"},
	})
}

func TestNormalizeTool(t *testing.T) {
	hosttest.CheckTools(t, []hosttest.Tool{
		{Name: "Bash", Input: `{"command":"ls"}`, Want: event.Shell, Command: "ls"},
		{Name: "Read", Input: `{"file_path":"/p/a.go"}`, Want: event.Read, Paths: []string{"/p/a.go"}},
		{Name: "NotebookEdit", Input: `{"notebook_path":"/p/n.ipynb"}`, Want: event.Edit, Paths: []string{"/p/n.ipynb"}},
		{Name: "Glob", Input: `{"pattern":"**/.env*","path":"/p"}`, Want: event.Search, Paths: []string{"/p"}},
		{Name: "Grep", Input: `{"pattern":"x"}`, Want: event.Search},
		{Name: "Agent", Input: `{"prompt":"x","subagent_type":"general-purpose"}`, Want: event.Delegate},
		{Name: "mcp__memory__store", Input: `{}`, Want: "mcp:memory__store"},
		// An MCP tool's arguments have their own types.
		{Name: "mcp__shell__shell_execute", Input: `{"command":["ls","-la"],"path":5}`, Want: "mcp:shell__shell_execute"},
		{Name: "SomethingNew", Input: `{"command":["ls"]}`, Want: event.Other},
		{Name: "SomethingNew", Input: `{}`, Want: event.Other},
		// A key that differs from "command" only in case is not the
		// command: the host does not run it.
		{Name: "Bash", Input: `{"COMMAND":"rm -rf ~"}`, Want: event.Shell},
	}, NormalizeTool)
}

func FuzzDecode(f *testing.F) {
	codec.Fuzz(f,
		`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"Stop","stop_hook_active":true}`,
		`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"x"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"comm`,
	)
}

// An MCP tool's arguments are still checked: a duplicate key (which one
// would the server use?) or broken syntax is malformed.
func TestNormalizeToolChecksMCPInput(t *testing.T) {
	for _, in := range []string{`{"command":"ls","command":"rm -rf ~"}`, `{"command":`} {
		if _, err := NormalizeTool("mcp__shell__run_command", json.RawMessage(in)); err == nil {
			t.Errorf("%s: accepted", in)
		}
	}
}
