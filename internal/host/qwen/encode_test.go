package qwen

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

func TestEncode(t *testing.T) {
	d := hosttest.Decided()
	pre := func(decision, reason string) string {
		return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"` + decision + `","permissionDecisionReason":` + hosttest.JSONString(reason) + `}}`
	}
	codec.CheckEncode(t, []hosttest.Answer{
		{Name: "pre deny", Event: "PreToolUse", D: d.Deny, Want: pre("deny", "rm -rf is blocked")},
		{Name: "pre deny without reason", Event: "PreToolUse", D: &event.Decision{Verdict: event.Deny}, Want: pre("deny", host.DefaultReason)},
		{Name: "pre ask is sent as ask", Event: "PreToolUse", D: d.Ask, Want: pre("ask", "unsure")},
		{Name: "pre nothing", Event: "PreToolUse", D: &event.Decision{}, Want: ""},
		{Name: "pre plain allow says nothing", Event: "PreToolUse", D: d.Allow, Want: ""},
		{Name: "pre context is not sent", Event: "PreToolUse", D: d.Context, Want: ""},
		{Name: "pre deny drops rewrite", Event: "PreToolUse", D: &event.Decision{Verdict: event.Deny, Reason: "no", UpdatedInput: json.RawMessage(`{}`)}, Want: pre("deny", "no")},
		{Name: "post tool context", Event: "PostToolUse", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"phase: implementation"}}`},
		{Name: "post tool block is not read", Event: "PostToolUse", D: d.Block, Want: ""},
		{Name: "post failure context", Event: "PostToolUseFailure", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"phase: implementation"}}`},
		{Name: "prompt context", Event: "UserPromptSubmit", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"phase: implementation"}}`},
		{Name: "prompt block", Event: "UserPromptSubmit", D: d.Block, Want: `{"decision":"block","reason":"todos open"}`},
		{Name: "session start context", Event: "SessionStart", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: implementation"}}`},
		{Name: "subagent start context", Event: "SubagentStart", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"phase: implementation"}}`},
		{Name: "stop keeps going", Event: "Stop", D: d.Block, Want: `{"decision":"block","reason":"todos open"}`},
		{Name: "subagent stop keeps going", Event: "SubagentStop", D: d.Block, Want: `{"decision":"block","reason":"todos open"}`},
		{Name: "stop context is not sent", Event: "Stop", D: d.Context, Want: ""},
		{Name: "pre compact says nothing", Event: "PreCompact", D: d.Block, Want: ""},
		{Name: "session end says nothing", Event: "SessionEnd", D: d.Block, Want: ""},
		{Name: "warning to the user", Event: "Stop", D: &event.Decision{Warnings: []string{"config broken", "again"}}, Want: `{"systemMessage":"config broken\nagain"}`},
	})
}

// A rewrite cannot be applied by Qwen Code under --yolo: the call is
// refused, and the model is given the input to call again with, and the
// context that explains it.
func TestEncodeRewriteRefused(t *testing.T) {
	for _, d := range []*event.Decision{
		hosttest.Decided().Rewrite,
		{Verdict: event.Allow, UpdatedInput: json.RawMessage(`{"command":"ls -a"}`), Context: []event.Entry{{Text: "redirected"}}},
	} {
		ans := Encode(&event.Event{HostEvent: "PreToolUse"}, d)
		var out struct {
			HookSpecificOutput struct{ PermissionDecision, PermissionDecisionReason string }
		}
		if err := json.Unmarshal(ans.Stdout, &out); err != nil {
			t.Fatal(err)
		}
		hs := out.HookSpecificOutput
		if hs.PermissionDecision != "deny" || !strings.Contains(hs.PermissionDecisionReason, `{"command":"ls -a"}`) || !strings.Contains(hs.PermissionDecisionReason, "cannot apply") {
			t.Errorf("rewrite answered %s", ans.Stdout)
		}
		if d.Context != nil && !strings.Contains(hs.PermissionDecisionReason, "redirected") {
			t.Errorf("the rewrite's context is lost: %s", ans.Stdout)
		}
	}
}

func TestUnreadable(t *testing.T) {
	codec.CheckUnreadable(t, []string{"", "Stop", "UserPromptSubmit", "SessionStart", "PostToolUse", "PostToolBatch"}, qwenDeny)
}

// qwenDeny accepts Qwen Code's deny: PreToolUse's permissionDecision deny
// whose reason is the one on stderr.
func qwenDeny(_ string, ans host.Answer) error {
	var out struct {
		HookSpecificOutput struct{ PermissionDecision, PermissionDecisionReason string }
	}
	if err := json.Unmarshal(ans.Stdout, &out); err != nil {
		return err
	}
	if hs := out.HookSpecificOutput; hs.PermissionDecision != "deny" || hs.PermissionDecisionReason != ans.Stderr {
		return fmt.Errorf("not a deny with the stderr reason: %s", ans.Stdout)
	}
	return nil
}
