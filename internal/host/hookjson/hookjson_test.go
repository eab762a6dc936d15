package hookjson

import (
	"encoding/json"
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

var testDialect = Dialect{
	Host: "test", Facts: &event.HostFacts{}, Kinds: host.Kinds{"PreToolUse": event.PreTool, "Stop": event.Stop},
	Carriers: map[string]int{"Stop": 7},
	Fields:   func(p *Payload, ev *event.Event) { ev.AgentID = p.AgentID },
	Tool: func(p *Payload) (event.Tool, error) {
		if p.ToolName == "Bad" {
			return event.Tool{}, errors.New("bad tool")
		}
		return event.Tool{Raw: p.ToolName, Name: event.Shell}, nil
	},
}

func TestDialectDecode(t *testing.T) {
	cases := []struct {
		name, data string
		wantErr    bool
		check      func(ev *event.Event) bool
	}{
		{"common and own fields", `{"session_id":"s","cwd":"/c","hook_event_name":"Stop","prompt":"p","agent_id":"a","stop_hook_active":true}`, false,
			func(ev *event.Event) bool {
				return ev.SessionID == "s" && ev.Cwd == "/c" && ev.ProjectDir == "/proj" && ev.Prompt == "p" && ev.AgentID == "a" && ev.StopHookActive && ev.ContextCap == 7 && ev.Host == "test"
			}},
		{"tool", `{"hook_event_name":"PreToolUse","tool_name":"Bash"}`, false, func(ev *event.Event) bool { return ev.Tool.Raw == "Bash" && ev.ContextCap == 0 }},
		{"tool call without tool", `{"hook_event_name":"PreToolUse","agent_id":"a"}`, true, func(ev *event.Event) bool { return ev.AgentID == "a" }},
		{"tool that does not map keeps the fields", `{"hook_event_name":"PreToolUse","tool_name":"Bad","agent_id":"a"}`, true, func(ev *event.Event) bool { return ev.AgentID == "a" && ev.Kind == event.PreTool }},
		{"duplicate key", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_name":"x"}`, true, func(ev *event.Event) bool { return ev.HostEvent == "PreToolUse" }},
	}
	for _, tc := range cases {
		_, ev, err := testDialect.Decode([]byte(tc.data), "/proj", time.Unix(0, 0))
		if (err != nil) != tc.wantErr || (err != nil && !errors.Is(err, host.ErrMalformed)) {
			t.Errorf("%s: err %v, want error %v", tc.name, err, tc.wantErr)
		}
		if !tc.check(ev) {
			t.Errorf("%s: event %+v", tc.name, ev)
		}
	}
}

func TestAnswer(t *testing.T) {
	fallback := func(string) host.Answer { return host.Answer{Exit: 2} }
	cases := []struct {
		name     string
		out      Output
		hs       *HookSpecific
		warnings []string
		want     string
	}{
		{"nothing", Output{}, &HookSpecific{HookEventName: "Stop"}, nil, ""},
		{"warnings only", Output{}, &HookSpecific{HookEventName: "Stop"}, []string{"a", "b"}, `{"systemMessage":"a\nb"}` + "\n"},
		{"context", Output{}, &HookSpecific{HookEventName: "SessionStart", AdditionalContext: "c"}, nil, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}` + "\n"},
		{"block", Output{Decision: "block", Reason: "r"}, &HookSpecific{HookEventName: "Stop"}, nil, `{"decision":"block","reason":"r"}` + "\n"},
	}
	for _, tc := range cases {
		if got := tc.out.Answer(tc.hs, tc.warnings, fallback); string(got.Stdout) != tc.want || got.Exit != 0 {
			t.Errorf("%s: %q exit %d, want %q", tc.name, got.Stdout, got.Exit, tc.want)
		}
	}
	bad := &HookSpecific{HookEventName: "PreToolUse", PermissionDecision: "allow", UpdatedInput: json.RawMessage(`{`)}
	if got := (Output{}).Answer(bad, nil, fallback); got.Exit != 2 {
		t.Errorf("unencodable answer: %+v, want the fallback", got)
	}
}

func TestUnreadableDeniesToolCallsOnly(t *testing.T) {
	for ev, blocks := range map[string]bool{"PreToolUse": true, "PermissionRequest": true, "PostToolUse": false, "": false} {
		ans := Unreadable(ev, host.ErrMalformed)
		var out Output
		if blocks && (ans.Exit != 2 || json.Unmarshal(ans.Stdout, &out) != nil || out.HookSpecificOutput == nil) {
			t.Errorf("%q: %+v, want a deny", ev, ans)
		}
		if !blocks && (ans.Exit != 0 || len(ans.Stdout) != 0) {
			t.Errorf("%q: %+v, want no answer", ev, ans)
		}
	}
}

func TestJudgedSorted(t *testing.T) {
	got := Tools{"b": event.Shell, "a": event.Read, "c": event.Edit}.Judged()
	if len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "c" {
		t.Errorf("Judged() = %v", got)
	}
}

func TestKindsOf(t *testing.T) {
	got := KindsOf("PreToolUse", "PostToolUseFailure", "BeforeTool")
	want := host.Kinds{"PreToolUse": event.PreTool, "PostToolUseFailure": event.PostTool}
	if !maps.Equal(got, want) {
		t.Errorf("KindsOf = %v, want %v (a name Claude Code does not have is left out)", got, want)
	}
}
