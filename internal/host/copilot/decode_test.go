package copilot

import (
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

// Every payload captured from Copilot CLI 1.0.102 decodes as the event
// its file is named after (Copilot names no event in the payload), with
// the session and cwd it names.
func TestCaptured(t *testing.T) {
	files := hosttest.CapturedFiles(t, "copilot-cli")
	seen := map[string]bool{}
	for _, f := range files {
		name, _, _ := strings.Cut(filepath.Base(f), "-")
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := Decode(data, "", time.Unix(0, 0))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if ev.HostEvent != name || ev.SessionID == "" || ev.Cwd == "" || ev.Facts != &Facts {
				t.Errorf("decoded %q session %q cwd %q, want %q", ev.HostEvent, ev.SessionID, ev.Cwd, name)
			}
			child := strings.Contains(string(data), `"parentAgentId"`) && name != SubagentStart && name != SubagentStop
			if child && (ev.AgentID == "" || ev.SessionID == ev.AgentID) {
				t.Errorf("a child's event kept the child's session %q", ev.SessionID)
			}
			if (ev.Kind == event.Unknown) != (name == "permissionRequest" || child && name == UserPrompt) {
				t.Errorf("kind %q", ev.Kind)
			}
			if active := strings.Contains(string(data), `"stop_hook_active":true`); ev.StopHookActive != active {
				t.Errorf("stop_hook_active %v, want %v", ev.StopHookActive, active)
			}
			if ev.Kind == event.PreTool && ev.Tool.Raw == "bash" && ev.Tool.Command == "" {
				t.Error("shell call without its command")
			}
			seen[name] = true
		})
	}
	for _, ev := range DefaultEvents {
		if !seen[ev] {
			t.Errorf("no captured %s payload", ev)
		}
	}
}

func TestDecodeTools(t *testing.T) {
	const common = `{"sessionId":"s","timestamp":1,"cwd":"/p",`
	cases := []struct {
		in      string
		name    event.ToolName
		paths   []string
		pattern string
	}{
		{`"toolName":"view","toolArgs":{"path":"/p/a.go"}}`, event.Read, []string{"/p/a.go"}, ""},
		{`"toolName":"create","toolArgs":{"path":"/p/n.txt","file_text":"x"}}`, event.Write, []string{"/p/n.txt"}, ""},
		{`"toolName":"edit","toolArgs":{"path":"/p/n.txt","old_str":"a","new_str":"b"}}`, event.Edit, []string{"/p/n.txt"}, ""},
		{`"toolName":"glob","toolArgs":{"pattern":"**/*.go","paths":["/p/a","/p/b"]}}`, event.Search, []string{"/p/a", "/p/b"}, "**/*.go"},
		{`"toolName":"grep","toolArgs":{"pattern":"TODO","paths":"/p","glob":"*.go"}}`, event.Search, []string{"/p"}, "*.go"},
		{`"toolName":"task","toolArgs":{"description":"d","prompt":"p","agent_type":"explore"}}`, event.Delegate, nil, ""},
		{`"toolName":"sql","toolArgs":{"description":"d","query":"SELECT 1"}}`, event.Other, nil, ""},
	}
	for _, tc := range cases {
		ev, err := Decode([]byte(common+tc.in), "", time.Unix(0, 0))
		if err != nil || ev.Kind != event.PreTool || ev.Tool.Name != tc.name || strings.Join(ev.Tool.Paths, ",") != strings.Join(tc.paths, ",") || ev.Tool.Pattern != tc.pattern {
			t.Errorf("%s: %+v, %v", tc.in, ev.Tool, err)
		}
	}
}

func TestDecodeEvents(t *testing.T) {
	ev, err := Decode([]byte(`{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"edit","toolArgs":{"path":"/p/f","old_str":"a","new_str":"b\nc"},"toolResult":{"resultType":"success","textResultForLlm":"ok"}}`), "/p", time.Unix(0, 0))
	if err != nil || ev.Kind != event.PostTool || ev.Output != "ok" || len(ev.Tool.Added) != 1 || ev.ProjectDir != "/p" || ev.ContextCap != MaxContext {
		t.Errorf("postToolUse: %+v, %v", ev, err)
	}
	ev, err = Decode([]byte(`{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"view","toolArgs":{"path":"/p/x"},"error":"Path does not exist"}`), "", time.Unix(0, 0))
	if err != nil || ev.HostEvent != PostToolUseFailure || !ev.Failed || ev.Error != "Path does not exist" {
		t.Errorf("postToolUseFailure: %+v, %v", ev, err)
	}
	ev, err = Decode([]byte(`{"sessionId":"s","timestamp":1,"cwd":"/p","transcriptPath":"/t","stopReason":"end_turn","stop_hook_active":true}`), "", time.Unix(0, 0))
	if err != nil || ev.Kind != event.Stop || !ev.StopHookActive || ev.ContextCap != 0 {
		t.Errorf("agentStop: %+v, %v", ev, err)
	}
	ev, err = Decode([]byte(`{"sessionId":"s","timestamp":1,"cwd":"/p","transcriptPath":"/t","agentId":"c","agentType":"explore","agentName":"explore","response":"sub done","stopReason":"end_turn","stop_hook_active":false,"parentAgentId":"s"}`), "", time.Unix(0, 0))
	if err != nil || ev.Kind != event.SubagentStop || ev.LastMessage != "sub done" || ev.AgentType != "explore" {
		t.Errorf("subagentStop: %+v, %v", ev, err)
	}
}

func TestDecodeMalformed(t *testing.T) {
	cases := []struct{ name, in, event string }{
		{"cut in the command", `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"bash","toolArgs":{"command":"rm -rf`, PreToolUse},
		{"case variant of command", `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"bash","toolArgs":{"command":"rm -rf ~","COMMAND":"ls"}}`, PreToolUse},
		{"toolArgs not an object", `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"bash","toolArgs":"rm -rf ~"}`, PreToolUse},
		{"no event's keys", `{"sessionId":"s","timestamp":1,"cwd":"/p"}`, ""},
		{"not JSON", `hello`, ""},
	}
	for _, tc := range cases {
		ev, err := Decode([]byte(tc.in), "", time.Unix(0, 0))
		if !errors.Is(err, host.ErrMalformed) || ev.HostEvent != tc.event {
			t.Errorf("%s: event %q, err %v", tc.name, ev.HostEvent, err)
		}
		if tc.event == PreToolUse {
			if a := Unreadable(ev.HostEvent, err); a.Exit != 2 || !strings.Contains(string(a.Stdout), `"permissionDecision":"deny"`) {
				t.Errorf("%s: unreadable answer %+v", tc.name, a)
			}
		}
	}
}

// Copilot's other tools that run a command or write a file (its runtime's
// tool classes in 1.0.102: write_bash/write_powershell type into a running
// shell, powershell and local_shell are shells, str_replace_editor and
// apply_patch edit, rg searches) are judged like bash, create and edit,
// not passed through as "other".
func TestDecodeWritingTools(t *testing.T) {
	const common = `{"sessionId":"s","timestamp":1,"cwd":"/p",`
	patch := `*** Begin Patch\n*** Add File: /h/.copilot/hooks/x.json\n+{}\n*** Update File: a.go\n*** Move to: b.go\n@@\n-a\n+b\n*** End Patch\n`
	cases := []struct {
		in      string
		name    event.ToolName
		command string
		paths   []string
	}{
		{`"toolName":"write_bash","toolArgs":{"shellId":"0","input":"rm -rf ~/.copilot/hooks{enter}","delay":5}}`, event.Shell, "rm -rf ~/.copilot/hooks\n", nil},
		{`"toolName":"write_powershell","toolArgs":{"shellId":"0","input":"Remove-Item x"}}`, event.Shell, "Remove-Item x", nil},
		{`"toolName":"powershell","toolArgs":{"command":"Remove-Item x","description":"d"}}`, event.Shell, "Remove-Item x", nil},
		{`"toolName":"str_replace_editor","toolArgs":{"command":"create","path":"/p/.github/hooks/x.json","file_text":"{}"}}`, event.Write, "", []string{"/p/.github/hooks/x.json"}},
		{`"toolName":"str_replace_editor","toolArgs":{"command":"str_replace","path":"/p/a","old_str":"a","new_str":"b"}}`, event.Edit, "", []string{"/p/a"}},
		{`"toolName":"str_replace_editor","toolArgs":{"command":"view","path":"/p/a"}}`, event.Read, "", []string{"/p/a"}},
		{`"toolName":"str_replace","toolArgs":{"path":"/p/a","old_str":"a","new_str":"b"}}`, event.Edit, "", []string{"/p/a"}},
		{`"toolName":"apply_patch","toolArgs":{"input":"` + patch + `"}}`, event.Edit, "", []string{"/h/.copilot/hooks/x.json", "a.go", "b.go"}},
		{`"toolName":"apply_patch","toolArgs":"` + patch + `"}`, event.Edit, "", []string{"/h/.copilot/hooks/x.json", "a.go", "b.go"}},
		{`"toolName":"rg","toolArgs":{"pattern":"x","paths":"/p"}}`, event.Search, "", []string{"/p"}},
	}
	for _, tc := range cases {
		ev, err := Decode([]byte(common+tc.in), "", time.Unix(0, 0))
		if err != nil || ev.Kind != event.PreTool || ev.Tool.Name != tc.name || ev.Tool.Command != tc.command || strings.Join(ev.Tool.Paths, ",") != strings.Join(tc.paths, ",") {
			t.Errorf("%s: %+v, %v", tc.in, ev.Tool, err)
		}
	}
	// A patch under a key read twice (case variants) cannot hide a path.
	if _, err := Decode([]byte(common+`"toolName":"apply_patch","toolArgs":{"input":"x","Input":"`+patch+`"}}`), "", time.Unix(0, 0)); err == nil {
		t.Error("apply_patch with a case-variant key decoded")
	}
}
