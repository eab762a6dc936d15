package codex

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

func TestEncode(t *testing.T) {
	d := hosttest.Decided()
	codec.CheckEncode(t, []hosttest.Answer{
		{Name: "pre deny", Event: "PreToolUse", D: d.Deny, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is blocked"}}`},
		{Name: "pre deny needs a reason", Event: "PreToolUse", D: &event.Decision{Verdict: event.Deny}, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by atreides"}}`},
		{Name: "pre ask becomes deny", Event: "PreToolUse", D: d.Ask, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":` + hosttest.JSONString(host.AskDenied(cannotAsk, "unsure")) + `}}`},
		{Name: "pre nothing", Event: "PreToolUse", D: &event.Decision{}, Want: ""},
		{Name: "pre plain allow is unsupported", Event: "PreToolUse", D: d.Allow, Want: ""},
		// Rewrites: see TestEncodeRewrite.
		{Name: "pre deny drops rewrite", Event: "PreToolUse", D: &event.Decision{Verdict: event.Deny, Reason: "no", UpdatedInput: json.RawMessage(`{}`)}, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{Name: "pre context is not sent", Event: "PreToolUse", D: d.Context, Want: ""},
		{Name: "permission deny", Event: "PermissionRequest", D: d.Deny, Want: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"rm -rf is blocked"}}}`},
		{Name: "permission allow without rewrite", Event: "PermissionRequest", D: &event.Decision{Verdict: event.Allow, UpdatedInput: d.Rewrite.UpdatedInput}, Want: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{Name: "permission ask leaves it to the user", Event: "PermissionRequest", D: d.Ask, Want: ""},
		{Name: "post tool context", Event: "PostToolUse", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"phase: implementation"}}`},
		{Name: "post tool block and context", Event: "PostToolUse", D: &event.Decision{Block: true, BlockReason: "r", Context: d.Context.Context}, Want: `{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"phase: implementation"}}`},
		{Name: "prompt block", Event: "UserPromptSubmit", D: d.Block, Want: `{"decision":"block","reason":"todos open"}`},
		{Name: "prompt context", Event: "UserPromptSubmit", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"phase: implementation"}}`},
		{Name: "session start context", Event: "SessionStart", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: implementation"}}`},
		{Name: "subagent start context", Event: "SubagentStart", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"phase: implementation"}}`},
		{Name: "stop block", Event: "Stop", D: d.Block, Want: `{"decision":"block","reason":"todos open"}`},
		{Name: "stop block needs a reason", Event: "Stop", D: &event.Decision{Block: true}, Want: `{"decision":"block","reason":"blocked by atreides"}`},
		{Name: "subagent stop block", Event: "SubagentStop", D: d.Block, Want: `{"decision":"block","reason":"todos open"}`},
		{Name: "stop context is not sent", Event: "Stop", D: d.Context, Want: ""},
		{Name: "pre compact cannot be refused", Event: "PreCompact", D: d.Block, Want: ""},
		{Name: "warning to the user", Event: "PostCompact", D: &event.Decision{Warnings: []string{"config broken"}}, Want: `{"systemMessage":"config broken"}`},
		{Name: "session end takes no answer", Event: "SessionEnd", D: &event.Decision{Warnings: []string{"x"}, Block: true}, Want: ""},
	})
}

// TestEncodeRewrite: Codex 0.171.0 runs a rewritten shell command (an
// allow with updatedInput, no reason); any other rewrite becomes a deny
// that gives the model the input to call with.
func TestEncodeRewrite(t *testing.T) {
	shell, _ := NormalizeTool("Bash", json.RawMessage(`{"command":"ls"}`))
	spawn, _ := NormalizeTool("spawn_agent", json.RawMessage(`{"agent_type":"explorer"}`))
	redirect := json.RawMessage(`{"agent_type":"librarian"}`)
	redirected := "atreides changes the input of this call, and a Codex hook can only change a shell command's, so it was not run. Make the call again with this input: "
	tests := []struct {
		name string
		tool event.Tool
		d    *event.Decision
		want string
	}{
		{"shell rewrite is an allow", shell, &event.Decision{UpdatedInput: json.RawMessage(`{"command":"ls -a"}`)},
			`{"permissionDecision":"allow","updatedInput":{"command":"ls -a"}}`},
		{"allow with rewrite drops the reason", shell, &event.Decision{Verdict: event.Allow, Reason: "fine", UpdatedInput: json.RawMessage(`{"command":"ls -a","timeout":5}`)},
			`{"permissionDecision":"allow","updatedInput":{"command":"ls -a","timeout":5}}`},
		{"a shell input without a string command is not sent", shell, &event.Decision{UpdatedInput: json.RawMessage(`{"COMMAND":"ls -a"}`)},
			`{"permissionDecision":"deny","permissionDecisionReason":` + hosttest.JSONString(redirected+`{"COMMAND":"ls -a"}`) + `}`},
		{"another tool's rewrite is a deny", spawn, &event.Decision{UpdatedInput: redirect, Reason: "roster"},
			`{"permissionDecision":"deny","permissionDecisionReason":` + hosttest.JSONString(redirected+string(redirect)+" Reason: roster") + `}`},
		{"a null command is not sent", shell, &event.Decision{UpdatedInput: json.RawMessage(`{"command":null}`)},
			`{"permissionDecision":"deny","permissionDecisionReason":` + hosttest.JSONString(redirected+`{"command":null}`) + `}`},
		{"input that is not JSON is a deny", shell, &event.Decision{UpdatedInput: json.RawMessage(`{not json`)},
			`{"permissionDecision":"deny","permissionDecisionReason":` + hosttest.JSONString(redirected+`{not json`) + `}`},
		{"deny drops the rewrite", shell, &event.Decision{Verdict: event.Deny, Reason: "no", UpdatedInput: redirect},
			`{"permissionDecision":"deny","permissionDecisionReason":"no"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := Encode(&event.Event{HostEvent: "PreToolUse", Tool: tt.tool}, tt.d)
			want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse",` + strings.TrimPrefix(tt.want, "{") + "}\n"
			if string(ans.Stdout) != want || ans.Exit != 0 {
				t.Errorf("got  %s exit %d\nwant %s", ans.Stdout, ans.Exit, want)
			}
		})
	}
}

func TestUnreadable(t *testing.T) {
	codec.CheckUnreadable(t, []string{"", "Stop", "UserPromptSubmit", "SessionStart", "PostToolUse"}, hosttest.HookSpecificDeny)
}
