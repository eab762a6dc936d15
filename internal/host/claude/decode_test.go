package claude

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

// samplesDir is the captured Claude Code payloads, vendored in
// internal/host/hosttest/testdata.
func samplesDir(t *testing.T) string {
	return hosttest.Samples(t, "host-samples", "claude-code", "captured")
}

// TestDecodeCaptured decodes every payload Claude Code 2.1.197 and 2.1.330
// sent in the capture runs, and checks what each event must carry.
func TestDecodeCaptured(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(samplesDir(t), "*", "*", "hooks", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]int{}
	n := 0
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
		n++
		versions[filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(f))))]++
		rel, _ := filepath.Rel(samplesDir(t), f)
		t.Run(rel, func(t *testing.T) {
			ev, err := Decode(data, "", time.Unix(0, 0))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			name := raw["hook_event_name"].(string)
			if ev.HostEvent != name || ev.Kind == event.Unknown {
				t.Fatalf("event %q decoded as %q/%q", name, ev.HostEvent, ev.Kind)
			}
			if ev.SessionID != raw["session_id"] || ev.Cwd != raw["cwd"] || ev.ProjectDir != "" {
				t.Errorf("ids: session %q cwd %q project %q", ev.SessionID, ev.Cwd, ev.ProjectDir)
			}
			checkKind(t, ev, raw)
		})
	}
	if n < 100 || len(versions) != 2 {
		t.Fatalf("decoded %d payloads from versions %v; want both captured versions", n, versions)
	}
}

func checkKind(t *testing.T, ev *event.Event, raw map[string]any) {
	t.Helper()
	switch ev.Kind {
	case event.PreTool, event.PermissionRequest, event.PostTool:
		if ev.Tool.Raw != raw["tool_name"] || ev.Tool.Name == "" {
			t.Errorf("tool %q normalized to %q", raw["tool_name"], ev.Tool.Name)
		}
		in, _ := raw["tool_input"].(map[string]any)
		switch ev.Tool.Name {
		case event.Shell:
			if ev.Tool.Command == "" || ev.Tool.Command != in["command"] {
				t.Errorf("shell command %q, input %v", ev.Tool.Command, in)
			}
		case event.Read, event.Write, event.Edit:
			if len(ev.Tool.Paths) == 0 || ev.Tool.Paths[0] != in["file_path"] {
				t.Errorf("paths %v, input %v", ev.Tool.Paths, in)
			}
		}
		if ev.HostEvent == "PostToolUseFailure" && (!ev.Failed || ev.Error == "") {
			t.Errorf("failure not marked: failed=%v error=%q", ev.Failed, ev.Error)
		}
	case event.SessionStart:
		if ev.Source == "" {
			t.Error("SessionStart without source")
		}
	case event.UserPrompt:
		if ev.Prompt == "" {
			t.Error("UserPromptSubmit without prompt")
		}
	case event.Stop, event.SubagentStop:
		if active, _ := raw["stop_hook_active"].(bool); active != ev.StopHookActive {
			t.Errorf("stop_hook_active %v, decoded %v", active, ev.StopHookActive)
		}
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
	tests := []struct {
		name, in, event string
	}{
		{"empty", "", ""},
		{"not json", "hello", ""},
		{"truncated pre tool", `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -`, "PreToolUse"},
		{"truncated spaces", `{"hook_event_name" :  "PermissionRequest", "tool_`, "PermissionRequest"},
		{"no event name", `{"session_id":"s"}`, ""},
		{"tool input not an object", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"rm -rf /"}`, "PreToolUse"},
		{"pre tool without tool", `{"hook_event_name":"PreToolUse"}`, "PreToolUse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Decode([]byte(tt.in), "", time.Now())
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
	tests := []struct {
		name, input string
		want        event.ToolName
		paths       []string
	}{
		{"Bash", `{"command":"ls"}`, event.Shell, nil},
		{"Read", `{"file_path":"/p/a.go"}`, event.Read, []string{"/p/a.go"}},
		{"NotebookEdit", `{"notebook_path":"/p/n.ipynb"}`, event.Edit, []string{"/p/n.ipynb"}},
		{"Glob", `{"pattern":"**/.env*","path":"/p"}`, event.Search, []string{"/p"}},
		{"Grep", `{"pattern":"x"}`, event.Search, nil},
		{"Agent", `{"prompt":"x","subagent_type":"general-purpose"}`, event.Delegate, nil},
		{"mcp__memory__store", `{}`, "mcp:memory__store", nil},
		// An MCP tool's arguments have their own types.
		{"mcp__shell__shell_execute", `{"command":["ls","-la"],"path":5}`, "mcp:shell__shell_execute", nil},
		{"SomethingNew", `{"command":["ls"]}`, event.Other, nil},
		{"SomethingNew", `{}`, event.Other, nil},
	}
	for _, tt := range tests {
		got, err := NormalizeTool(tt.name, json.RawMessage(tt.input))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got.Name != tt.want || strings.Join(got.Paths, ",") != strings.Join(tt.paths, ",") {
			t.Errorf("%s: got %q %v, want %q %v", tt.name, got.Name, got.Paths, tt.want, tt.paths)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`))
	f.Add([]byte(`{"hook_event_name":"Stop","stop_hook_active":true}`))
	f.Add([]byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"x"}}`))
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"comm`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := Decode(data, "", time.Unix(0, 0))
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

// An MCP tool's arguments are still checked: a duplicate key (which one
// would the server use?) or broken syntax is malformed.
func TestNormalizeToolChecksMCPInput(t *testing.T) {
	for _, in := range []string{`{"command":"ls","command":"rm -rf ~"}`, `{"command":`} {
		if _, err := NormalizeTool("mcp__shell__run_command", json.RawMessage(in)); err == nil {
			t.Errorf("%s: accepted", in)
		}
	}
}
