package gemini

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
	"github.com/atreides-dev/atreides/internal/host/hookjson"
)

// samplesDir is the captured Gemini CLI payloads, vendored in
// internal/host/hosttest/testdata.
func samplesDir(t *testing.T) string {
	return hosttest.Samples(t, "host-samples", "gemini-cli", "captured")
}

// modelEvents are the Gemini events atreides deliberately leaves Unknown.
var modelEvents = map[string]bool{"BeforeModel": true, "AfterModel": true, "BeforeToolSelection": true}

// TestDecodeCaptured decodes every payload Gemini CLI 0.61.0 sent in the
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
			ev, err := Decode(data, "", time.Unix(0, 0))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if ev.HostEvent != name || ev.Host != Host {
				t.Fatalf("event %q decoded as %q from %q", name, ev.HostEvent, ev.Host)
			}
			if (ev.Kind == event.Unknown) != modelEvents[name] {
				t.Fatalf("event %q decoded as kind %q", name, ev.Kind)
			}
			if ev.SessionID != raw["session_id"] || ev.Cwd != raw["cwd"] || ev.ProjectDir != "" {
				t.Errorf("ids: session %q cwd %q project %q", ev.SessionID, ev.Cwd, ev.ProjectDir)
			}
			checkKind(t, ev, raw)
			// Every captured event must get an answer Gemini can parse.
			ans := Encode(ev, &event.Decision{Verdict: event.Deny, Reason: "r", Block: true, BlockReason: "b", Context: []event.Entry{{Text: "c"}}})
			if len(ans.Stdout) > 0 && !json.Valid(ans.Stdout) {
				t.Errorf("invalid JSON answer %q", ans.Stdout)
			}
		})
	}
	// Every event kind the capture fired must have been decoded; the
	// capture fired all but Notification (yolo mode asks nothing).
	for _, want := range []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd", "BeforeModel", "AfterModel", "BeforeToolSelection"} {
		if seen[want] == 0 {
			t.Errorf("no captured %s payload decoded (saw %v)", want, seen)
		}
	}
}

func checkKind(t *testing.T, ev *event.Event, raw map[string]any) {
	t.Helper()
	switch ev.Kind {
	case event.PreTool, event.PostTool:
		if ev.Tool.Raw != raw["tool_name"] || ev.Tool.Name == "" || ev.Tool.Name == event.Other {
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
		if ev.Kind == event.PostTool {
			resp, _ := raw["tool_response"].(map[string]any)
			if ev.Output == "" || !strings.Contains(resp["llmContent"].(string), ev.Output[:min(20, len(ev.Output))]) {
				t.Errorf("output %q from %v", ev.Output, resp["llmContent"])
			}
			if _, failed := resp["error"]; failed != ev.Failed {
				t.Errorf("failed=%v, response error present=%v", ev.Failed, failed)
			}
		}
	case event.SessionStart:
		if ev.Source != raw["source"] || ev.Source == "" {
			t.Errorf("SessionStart source %q", ev.Source)
		}
	case event.PreCompact:
		if ev.Source != raw["trigger"] || ev.Source == "" {
			t.Errorf("PreCompress trigger %q", ev.Source)
		}
	case event.SessionEnd:
		if ev.Source != raw["reason"] || ev.Source == "" {
			t.Errorf("SessionEnd reason %q", ev.Source)
		}
	case event.UserPrompt:
		if ev.Prompt == "" || ev.Prompt != raw["prompt"] {
			t.Errorf("BeforeAgent prompt %q", ev.Prompt)
		}
	case event.Stop:
		if active, _ := raw["stop_hook_active"].(bool); active != ev.StopHookActive {
			t.Errorf("stop_hook_active %v, decoded %v", active, ev.StopHookActive)
		}
		if ev.LastMessage == "" || ev.LastMessage != raw["prompt_response"] {
			t.Errorf("last message %q", ev.LastMessage)
		}
	}
}

func TestDecodeProjectDir(t *testing.T) {
	in := []byte(`{"session_id":"s","cwd":"/p/sub","hook_event_name":"SessionStart","source":"startup"}`)
	ev, err := Adapter{}.Decode(in, func(k string) string {
		if k == "GEMINI_PROJECT_DIR" {
			return "/p"
		}
		return ""
	}, time.Unix(0, 0))
	if err != nil || ev.ProjectDir != "/p" || ev.Cwd != "/p/sub" {
		t.Fatalf("project %q cwd %q err %v; want GEMINI_PROJECT_DIR to win", ev.ProjectDir, ev.Cwd, err)
	}
	ev, _ = Adapter{}.Decode(in, func(string) string { return "" }, time.Unix(0, 0))
	if ev.ProjectDir != "" || ev.Cwd != "/p/sub" {
		t.Errorf("without GEMINI_PROJECT_DIR the project is %q, want it left to be found from the cwd", ev.ProjectDir)
	}
}

// TestDecodeAfterToolFailure covers the failure shape from the 0.61.0
// source (error {type, message}); the capture has no failing tool.
func TestDecodeAfterToolFailure(t *testing.T) {
	tests := []struct {
		name, response string
		failed         bool
		errText        string
	}{
		{"success", `{"llmContent":"ok","returnDisplay":"ok"}`, false, ""},
		{"null error", `{"llmContent":"ok","error":null}`, false, ""},
		{"error object", `{"llmContent":"Command exited with code 3","error":{"type":"execution_failed","message":"exit 3"}}`, true, "exit 3"},
		{"error type only", `{"llmContent":"x","error":{"type":"stop_execution"}}`, true, "stop_execution"},
		{"error string", `{"llmContent":"x","error":"boom"}`, true, "boom"},
		{"parts content", `{"llmContent":[{"text":"a"},{"inlineData":{}},{"text":"b"}]}`, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"false"},"tool_response":` + tt.response + `}`
			ev, err := Decode([]byte(in), "", time.Unix(0, 0))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Failed != tt.failed || ev.Error != tt.errText {
				t.Errorf("failed=%v error=%q, want %v %q", ev.Failed, ev.Error, tt.failed, tt.errText)
			}
			if tt.name == "parts content" && ev.Output != "a\nb" {
				t.Errorf("output %q, want the parts' text", ev.Output)
			}
		})
	}
}

func TestDecodeMalformed(t *testing.T) {
	tests := []struct {
		name, in, event string
	}{
		{"empty", "", ""},
		{"not json", "hello", ""},
		{"truncated before tool", `{"session_id":"s","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -`, "BeforeTool"},
		{"no event name", `{"session_id":"s"}`, ""},
		{"tool input not an object", `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":"rm -rf /"}`, "BeforeTool"},
		{"before tool without tool", `{"hook_event_name":"BeforeTool"}`, "BeforeTool"},
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
		mcp         *hookjson.MCPContext
		want        event.ToolName
		command     string
		paths       []string
	}{
		{"run_shell_command", `{"command":"ls -la","description":"list"}`, nil, event.Shell, "ls -la", nil},
		{"read_file", `{"file_path":"/p/a.go"}`, nil, event.Read, "", []string{"/p/a.go"}},
		{"read_many_files", `{"include":["src/**/*.go","README.md"]}`, nil, event.Read, "", []string{"src/**/*.go", "README.md"}},
		{"write_file", `{"file_path":"/p/n.txt","content":"x"}`, nil, event.Write, "", []string{"/p/n.txt"}},
		{"replace", `{"file_path":"/p/n.txt","old_string":"a","new_string":"b"}`, nil, event.Edit, "", []string{"/p/n.txt"}},
		{"glob", `{"pattern":"**/.env*","dir_path":"/p"}`, nil, event.Search, "", []string{"/p", "**/.env*"}},
		{"grep_search", `{"pattern":"x"}`, nil, event.Search, "", nil},
		{"list_directory", `{"dir_path":"/p/src"}`, nil, event.Search, "", []string{"/p/src"}},
		{"web_fetch", `{"prompt":"summarize https://example.com"}`, nil, event.Fetch, "", nil},
		{"google_web_search", `{"query":"go 1.26"}`, nil, event.Fetch, "", nil},
		{"invoke_agent", `{"name":"x"}`, nil, event.Delegate, "", nil},
		{"activate_skill", `{}`, nil, event.Other, "", nil},
		{"store", `{}`, &hookjson.MCPContext{ServerName: "memory", ToolName: "store"}, "mcp:memory__store", "", nil},
		{"shell_execute", `{"command":["ls","-la"],"file_path":5}`, &hookjson.MCPContext{ServerName: "shell", ToolName: "shell_execute"}, "mcp:shell__shell_execute", "", nil},
		{"SomethingNew", `{}`, nil, event.Other, "", nil},
	}
	for _, tt := range tests {
		got, err := NormalizeTool(tt.name, json.RawMessage(tt.input), tt.mcp)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got.Name != tt.want || got.Command != tt.command || strings.Join(got.Paths, ",") != strings.Join(tt.paths, ",") {
			t.Errorf("%s: got %q %q %v, want %q %q %v", tt.name, got.Name, got.Command, got.Paths, tt.want, tt.command, tt.paths)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`))
	f.Add([]byte(`{"hook_event_name":"AfterAgent","stop_hook_active":true,"prompt_response":"done"}`))
	f.Add([]byte(`{"hook_event_name":"AfterTool","tool_name":"read_file","tool_response":{"llmContent":"x","error":{"message":"e"}}}`))
	f.Add([]byte(`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"comm`))
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
		if err != nil && ev.HostEvent == "BeforeTool" {
			if u := Unreadable(ev.HostEvent, err); u.Exit != 2 || !json.Valid(u.Stdout) {
				t.Fatalf("unreadable tool call not blocked: %+v", u)
			}
		}
	})
}
