package gemini

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

// codec is Gemini CLI's adapter for the shared decode checks; its
// captured payloads are vendored in internal/host/hosttest/testdata.
var codec = hosttest.Codec{Adapter: Adapter{}, SamplesDir: "gemini-cli", ToolEvents: []string{"BeforeTool"}}

// modelEvents are the Gemini events atreides deliberately leaves Unknown.
var modelEvents = map[string]bool{"BeforeModel": true, "AfterModel": true, "BeforeToolSelection": true}

// TestDecodeCaptured decodes every payload Gemini CLI 0.61.0 sent in the
// capture runs, and checks what each event must carry. Every event kind
// the capture fired must have been decoded; the capture fired all but
// Notification (yolo mode asks nothing).
func TestDecodeCaptured(t *testing.T) {
	codec.Captured(t, modelEvents, []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd", "BeforeModel", "AfterModel", "BeforeToolSelection"}, checkKind)
}

// Every captured payload decodes exactly as encoding/json decodes it:
// real payloads have exact, unique keys, so strict decoding changes
// nothing for them.
func TestSamplesDecodeAsBefore(t *testing.T) {
	hosttest.SamplesDecodeAsLoose[ToolInput](t, codec.SamplesDir)
}

func BenchmarkDecodeSamples(b *testing.B) { codec.Bench(b) }

func checkKind(t *testing.T, ev *event.Event, raw map[string]any) {
	t.Helper()
	switch ev.Kind {
	case event.PreTool, event.PostTool:
		hosttest.CheckToolCall(t, ev, raw)
		if ev.Tool.Name == event.Other {
			t.Errorf("tool %q not mapped", ev.Tool.Raw)
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
	case event.PreCompact:
		hosttest.Carried(t, "PreCompress trigger", ev.Source, raw, "trigger")
	case event.SessionEnd:
		hosttest.Carried(t, "SessionEnd reason", ev.Source, raw, "reason")
	case event.Stop:
		hosttest.Carried(t, "last message", ev.LastMessage, raw, "prompt_response")
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
	codec.CheckMalformed(t, []hosttest.Malformed{
		{Name: "empty"},
		{Name: "not json", In: "hello"},
		{Name: "truncated before tool", In: `{"session_id":"s","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -`, Event: "BeforeTool"},
		{Name: "no event name", In: `{"session_id":"s"}`},
		{Name: "tool input not an object", In: `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":"rm -rf /"}`, Event: "BeforeTool"},
		{Name: "before tool without tool", In: `{"hook_event_name":"BeforeTool"}`, Event: "BeforeTool"},
	})
}

// mcpServers are the MCP servers Gemini CLI names in mcp_context beside
// the tools of that name in TestNormalizeTool.
var mcpServers = map[string]string{"store": "memory", "shell_execute": "shell"}

func TestNormalizeTool(t *testing.T) {
	hosttest.CheckTools(t, []hosttest.Tool{
		{Name: "run_shell_command", Input: `{"command":"ls -la","description":"list"}`, Want: event.Shell, Command: "ls -la"},
		{Name: "read_file", Input: `{"file_path":"/p/a.go"}`, Want: event.Read, Paths: []string{"/p/a.go"}},
		{Name: "read_many_files", Input: `{"include":["src/**/*.go","README.md"]}`, Want: event.Read, Paths: []string{"src/**/*.go", "README.md"}},
		{Name: "write_file", Input: `{"file_path":"/p/n.txt","content":"x"}`, Want: event.Write, Paths: []string{"/p/n.txt"}},
		{Name: "replace", Input: `{"file_path":"/p/n.txt","old_string":"a","new_string":"b"}`, Want: event.Edit, Paths: []string{"/p/n.txt"}},
		{Name: "glob", Input: `{"pattern":"**/.env*","dir_path":"/p"}`, Want: event.Search, Paths: []string{"/p", "**/.env*"}},
		{Name: "grep_search", Input: `{"pattern":"x"}`, Want: event.Search},
		{Name: "list_directory", Input: `{"dir_path":"/p/src"}`, Want: event.Search, Paths: []string{"/p/src"}},
		{Name: "web_fetch", Input: `{"prompt":"summarize https://example.com"}`, Want: event.Fetch},
		{Name: "google_web_search", Input: `{"query":"go 1.26"}`, Want: event.Fetch},
		{Name: "invoke_agent", Input: `{"name":"x"}`, Want: event.Delegate},
		{Name: "activate_skill", Input: `{}`, Want: event.Other},
		{Name: "store", Input: `{}`, Want: "mcp:memory__store"},
		{Name: "shell_execute", Input: `{"command":["ls","-la"],"file_path":5}`, Want: "mcp:shell__shell_execute"},
		{Name: "SomethingNew", Input: `{}`, Want: event.Other},
		// A key that differs from "command" only in case is not the
		// command: the host does not run it.
		{Name: "run_shell_command", Input: `{"COMMAND":"rm -rf ~"}`, Want: event.Shell},
	}, func(name string, input json.RawMessage) (event.Tool, error) {
		var mcp *hookjson.MCPContext
		if server, ok := mcpServers[name]; ok {
			mcp = &hookjson.MCPContext{ServerName: server, ToolName: name}
		}
		return NormalizeTool(name, input, mcp)
	})
}

func FuzzDecode(f *testing.F) {
	codec.Fuzz(f,
		`{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"AfterAgent","stop_hook_active":true,"prompt_response":"done"}`,
		`{"hook_event_name":"AfterTool","tool_name":"read_file","tool_response":{"llmContent":"x","error":{"message":"e"}}}`,
		`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"comm`,
	)
}

// run_shell_command runs its command in dir_path (0.61.0 resolves a
// relative one from the project): the guard judges its relative paths
// from there, or `echo {} > settings.json` in .gemini passes for a write
// to ./settings.json. The project stays where Gemini was started.
func TestDecodeShellDirPath(t *testing.T) {
	for _, c := range []struct{ dir, want string }{
		{`"/p/.gemini"`, "/p/.gemini"},
		{`".gemini"`, "/p/.gemini"},
		{`"sub/../.gemini/"`, "/p/.gemini"},
		{`""`, "/p"},
	} {
		in := `{"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-29T00:00:00Z",` +
			`"tool_name":"run_shell_command","tool_input":{"command":"echo {} > settings.json","dir_path":` + c.dir + `}}`
		ev, err := Decode([]byte(in), "", time.Unix(0, 0))
		if err != nil || ev.Cwd != c.want || ev.Tool.Command != "echo {} > settings.json" {
			t.Errorf("dir_path %s: cwd %q, %v; want %q", c.dir, ev.Cwd, err, c.want)
		}
		if c.want != "/p" && ev.ProjectDir == c.want {
			t.Errorf("dir_path %s moved the project to %q", c.dir, ev.ProjectDir)
		}
	}
	in := `{"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-29T00:00:00Z",` +
		`"tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"/p","Dir_Path":"/p/.gemini"}}`
	if _, err := Decode([]byte(in), "", time.Unix(0, 0)); err == nil {
		t.Error("a case-variant dir_path decoded")
	}
}
