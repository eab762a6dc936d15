package copilot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

func TestEncode(t *testing.T) {
	cases := []struct {
		name, ev string
		d        event.Decision
		want     string
	}{
		{"plain allow says nothing", PreToolUse, event.Decision{Verdict: event.Allow}, ""},
		{"deny", PreToolUse, event.Decision{Verdict: event.Deny, Reason: "no"}, `{"permissionDecision":"deny","permissionDecisionReason":"no"}`},
		{"blank deny", PreToolUse, event.Decision{Verdict: event.Deny}, `{"permissionDecision":"deny","permissionDecisionReason":"blocked by atreides"}`},
		{"ask", PreToolUse, event.Decision{Verdict: event.Ask, Reason: "sure?"}, `{"permissionDecision":"ask","permissionDecisionReason":"sure?"}`},
		{"rewrite without approving", PreToolUse, event.Decision{Verdict: event.Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}, `{"modifiedArgs":{"command":"ls"}}`},
		{"prompt block", UserPrompt, event.Decision{Block: true, BlockReason: "not now"}, `{"decision":"block","reason":"not now"}`},
		{"keep going", AgentStop, event.Decision{Block: true, BlockReason: "todos"}, `{"decision":"block","reason":"todos"}`},
		{"child keeps going", SubagentStop, event.Decision{Block: true, BlockReason: "more"}, `{"decision":"block","reason":"more"}`},
		{"output cut", PostToolUse, event.Decision{ReplaceOutput: ptr("short"), Context: []event.Entry{{Text: "c"}}}, `{"modifiedResult":{"resultType":"failure","textResultForLlm":"short"},"additionalContext":"c"}`},
		{"session end says nothing", SessionEnd, event.Decision{Block: true, BlockReason: "x"}, ""},
	}
	for _, tc := range cases {
		got := strings.TrimSpace(string(Encode(&event.Event{HostEvent: tc.ev, ReplacesOutput: true, Response: json.RawMessage(`{"resultType":"failure","textResultForLlm":"x"}`)}, &tc.d).Stdout))
		if got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

func ptr(s string) *string { return &s }
