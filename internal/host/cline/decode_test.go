package cline

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

// Every captured payload decodes as its own event, with the session and
// the workspace it names, and its tool call read from tool_call or
// tool_result.
func TestCaptured(t *testing.T) {
	files := hosttest.CapturedFiles(t, "cline")
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var raw struct {
			HookName       string `json:"hookName"`
			SessionContext struct {
				RootSessionID string `json:"rootSessionId"`
			} `json:"sessionContext"`
			WorkspaceRoots []string `json:"workspaceRoots"`
			ParentAgentID  *string  `json:"parent_agent_id"`
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		ev, err := (Adapter{}).Decode(data, func(string) string { return "" }, time.Unix(0, 0))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		seen[ev.HostEvent] = true
		if want := strings.SplitN(filepath.Base(f), "-", 2)[0]; ev.HostEvent != want || ev.Host != Host || ev.Facts != &Facts {
			t.Errorf("%s: event %q host %q", f, ev.HostEvent, ev.Host)
		}
		if ev.SessionID != raw.SessionContext.RootSessionID || ev.ProjectDir != raw.WorkspaceRoots[0] || ev.InSubagent() != (raw.ParentAgentID != nil) {
			t.Errorf("%s: session %q project %q agent %q", f, ev.SessionID, ev.ProjectDir, ev.AgentID)
		}
		if ev.InSubagent() {
			seen["sub "+string(ev.Kind)] = true
		}
		if (ev.Kind == event.PreTool || ev.Kind == event.PostTool) && (ev.Tool.Raw == "" || ev.Tool.Name == event.Other || ev.ContextCap != MaxContext) {
			t.Errorf("%s: tool %+v cap %d", f, ev.Tool, ev.ContextCap)
		}
		d := event.Decision{Verdict: event.Deny, Reason: "r", Block: true, BlockReason: "b", Context: []event.Entry{{Text: "c"}}}
		if ans := Encode(ev, &d); len(ans.Stdout) > 0 && !json.Valid(ans.Stdout) {
			t.Errorf("%s: invalid answer %s", f, ans.Stdout)
		}
	}
	for _, want := range []string{"PreToolUse", "PostToolUse", "TaskStart", "TaskComplete", "sub subagent_start", "sub subagent_stop", "sub pre_tool"} {
		if !seen[want] {
			t.Errorf("no captured %s", want)
		}
	}
}

func pre(name, input string) []byte {
	return []byte(`{"taskId":"t","sessionContext":{"rootSessionId":"s"},"workspaceRoots":["/p"],"workspaceInfo":{"rootPath":"/p","hint":"p"},"agent_id":"a","parent_agent_id":null,"hookName":"tool_call","iteration":1,"tool_call":{"id":"c1","name":"` + name + `","input":` + input + `},"preToolUse":{"toolName":"` + name + `","parameters":{}}}`)
}

func TestNormalize(t *testing.T) {
	for _, tt := range []struct {
		name, input string
		want        event.ToolName
		cmd         string
		paths       []string
	}{
		{"run_commands", `{"commands":["echo a","rm -rf /"]}`, event.Shell, "echo a\nrm -rf /", nil},
		{"read_files", `{"files":[{"path":"/p/a"},{"path":"/p/b","start_line":1,"end_line":null}]}`, event.Read, "", []string{"/p/a", "/p/b"}},
		{"editor", `{"path":"/p/a","old_text":"x","new_text":"y"}`, event.Edit, "", []string{"/p/a"}},
		{"editor", `{"path":"/p/a","new_text":"y","insert_line":3}`, event.Edit, "", []string{"/p/a"}},
		{"editor", `{"path":"/p/new","new_text":"y"}`, event.Write, "", []string{"/p/new"}},
		{"search_codebase", `{"queries":["x"]}`, event.Search, "", nil},
		{"fetch_web_content", `{"requests":[{"url":"https://x","prompt":"p"}]}`, event.Fetch, "", nil},
		{"spawn_agent", `{"systemPrompt":"s","task":"t"}`, event.Delegate, "", nil},
		{"team_status", `{}`, event.Other, "", nil},
		{"some_mcp_tool", `{"x":1}`, event.Other, "", nil},
	} {
		ev, err := Decode(pre(tt.name, tt.input), time.Unix(0, 0))
		if err != nil {
			t.Errorf("%s %s: %v", tt.name, tt.input, err)
			continue
		}
		if ev.Kind != event.PreTool || ev.Tool.Name != tt.want || ev.Tool.Command != tt.cmd || strings.Join(ev.Tool.Paths, ",") != strings.Join(tt.paths, ",") {
			t.Errorf("%s %s: %+v", tt.name, tt.input, ev.Tool)
		}
	}
}

func TestMalformed(t *testing.T) {
	for _, in := range []string{
		string(pre("run_commands", `{"commands":["ls"],"COMMANDS":["rm -rf ~"]}`)),
		string(pre("run_commands", `{"commands":"ls"}`)),
		string(pre("run_commands", `["ls"]`)),
		string(pre("", `{}`)),
		`{"hookName":"tool_call","tool_call":{"id":"c1","name":"run_commands","input":{"commands":["rm -rf`,
	} {
		ev, err := Decode([]byte(in), time.Unix(0, 0))
		if !errors.Is(err, host.ErrMalformed) || ev.HostEvent != "PreToolUse" {
			t.Errorf("%s: event %q, err %v", in, ev.HostEvent, err)
		}
		if ans := Unreadable(ev.HostEvent, err); ans.Exit != 2 || !strings.Contains(string(ans.Stdout), `"cancel":true`) {
			t.Errorf("%s: answer %+v", in, ans)
		}
	}
	if _, err := Decode([]byte(`{"hookName":"elsewhere"}`), time.Unix(0, 0)); err == nil {
		t.Error("an unknown hookName decoded")
	}
	if ans := Unreadable("PostToolUse", errors.New("x")); ans.Exit != 0 || len(ans.Stdout) != 0 {
		t.Errorf("unreadable PostToolUse answered %+v", ans)
	}
}

func TestSubagent(t *testing.T) {
	in := strings.Replace(string(pre("run_commands", `{"commands":["ls"]}`)), `"parent_agent_id":null`, `"parent_agent_id":"a0"`, 1)
	ev, err := Decode([]byte(in), time.Unix(0, 0))
	if err != nil || ev.AgentID != "a" || ev.AgentType != Facts.DefaultAgent {
		t.Errorf("agent %q type %q, %v", ev.AgentID, ev.AgentType, err)
	}
}
