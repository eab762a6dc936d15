package codex

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/host"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

func TestEncode(t *testing.T) {
	deny := &event.Decision{Verdict: event.Deny, Rule: "fs.rm-rf", Reason: "rm -rf is blocked"}
	ask := &event.Decision{Verdict: event.Ask, Reason: "unsure"}
	allow := &event.Decision{Verdict: event.Allow, Reason: "fine"}
	ctx := &event.Decision{Context: []event.Entry{{Text: "phase: implementation"}}}
	block := &event.Decision{Block: true, BlockReason: "todos open"}
	rewrite := &event.Decision{UpdatedInput: json.RawMessage(`{"command":"ls -a"}`)}
	codec.CheckEncode(t, []hosttest.Answer{
		{Name: "pre deny", Event: "PreToolUse", D: deny, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is blocked"}}`},
		{Name: "pre deny needs a reason", Event: "PreToolUse", D: &event.Decision{Verdict: event.Deny}, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by atreides"}}`},
		{Name: "pre ask becomes deny", Event: "PreToolUse", D: ask, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":` + quote(host.AskDenied(cannotAsk, "unsure")) + `}}`},
		{Name: "pre nothing", Event: "PreToolUse", D: &event.Decision{}, Want: ""},
		{Name: "pre plain allow is unsupported", Event: "PreToolUse", D: allow, Want: ""},
		{Name: "pre rewrite is an allow", Event: "PreToolUse", D: rewrite, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"}}}`},
		{Name: "pre allow with rewrite drops the reason", Event: "PreToolUse", D: &event.Decision{Verdict: event.Allow, Reason: "fine", UpdatedInput: rewrite.UpdatedInput}, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"}}}`},
		{Name: "pre deny drops rewrite", Event: "PreToolUse", D: &event.Decision{Verdict: event.Deny, Reason: "no", UpdatedInput: json.RawMessage(`{}`)}, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{Name: "pre context is not sent", Event: "PreToolUse", D: ctx, Want: ""},
		{Name: "permission deny", Event: "PermissionRequest", D: deny, Want: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"rm -rf is blocked"}}}`},
		{Name: "permission allow without rewrite", Event: "PermissionRequest", D: &event.Decision{Verdict: event.Allow, UpdatedInput: rewrite.UpdatedInput}, Want: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{Name: "permission ask leaves it to the user", Event: "PermissionRequest", D: ask, Want: ""},
		{Name: "post tool context", Event: "PostToolUse", D: ctx, Want: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"phase: implementation"}}`},
		{Name: "post tool block and context", Event: "PostToolUse", D: &event.Decision{Block: true, BlockReason: "r", Context: ctx.Context}, Want: `{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"phase: implementation"}}`},
		{Name: "prompt block", Event: "UserPromptSubmit", D: block, Want: `{"decision":"block","reason":"todos open"}`},
		{Name: "prompt context", Event: "UserPromptSubmit", D: ctx, Want: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"phase: implementation"}}`},
		{Name: "session start context", Event: "SessionStart", D: ctx, Want: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: implementation"}}`},
		{Name: "subagent start context", Event: "SubagentStart", D: ctx, Want: `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"phase: implementation"}}`},
		{Name: "stop block", Event: "Stop", D: block, Want: `{"decision":"block","reason":"todos open"}`},
		{Name: "stop block needs a reason", Event: "Stop", D: &event.Decision{Block: true}, Want: `{"decision":"block","reason":"blocked by atreides"}`},
		{Name: "subagent stop block", Event: "SubagentStop", D: block, Want: `{"decision":"block","reason":"todos open"}`},
		{Name: "stop context is not sent", Event: "Stop", D: ctx, Want: ""},
		{Name: "pre compact cannot be refused", Event: "PreCompact", D: block, Want: ""},
		{Name: "warning to the user", Event: "PostCompact", D: &event.Decision{Warnings: []string{"config broken"}}, Want: `{"systemMessage":"config broken"}`},
		{Name: "session end takes no answer", Event: "SessionEnd", D: &event.Decision{Warnings: []string{"x"}, Block: true}, Want: ""},
	})
}

func TestEncodeBrokenRewriteFailsClosed(t *testing.T) {
	ans := Encode(&event.Event{HostEvent: "PreToolUse"}, &event.Decision{UpdatedInput: json.RawMessage(`{not json`)})
	if ans.Exit != 2 || !strings.Contains(string(ans.Stdout), `"permissionDecision":"deny"`) {
		t.Errorf("a rewrite that cannot be encoded must block, got %+v", ans)
	}
}

func TestUnreadable(t *testing.T) {
	codec.CheckUnreadable(t, []string{"", "Stop", "UserPromptSubmit", "SessionStart", "PostToolUse"}, hosttest.HookSpecificDeny)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
