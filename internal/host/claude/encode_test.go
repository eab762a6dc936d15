package claude

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

func TestEncode(t *testing.T) {
	d := hosttest.Decided()
	codec.CheckEncode(t, []hosttest.Answer{
		{Name: "pre deny", Event: "PreToolUse", D: d.Deny, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is blocked"}}`},
		{Name: "pre ask", Event: "PreToolUse", D: d.Ask, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"unsure"}}`},
		{Name: "pre nothing", Event: "PreToolUse", D: &event.Decision{}, Want: ""},
		{Name: "pre rewrite needs allow", Event: "PreToolUse", D: d.Rewrite, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"}}}`},
		{Name: "pre deny drops rewrite", Event: "PreToolUse", D: &event.Decision{Verdict: event.Deny, Reason: "no", UpdatedInput: json.RawMessage(`{}`)}, Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{Name: "permission deny", Event: "PermissionRequest", D: d.Deny, Want: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"rm -rf is blocked"}}}`},
		{Name: "permission ask leaves it to the user", Event: "PermissionRequest", D: d.Ask, Want: ""},
		{Name: "session start context", Event: "SessionStart", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: implementation"}}`},
		{Name: "stop block", Event: "Stop", D: d.Block, Want: `{"decision":"block","reason":"todos open"}`},
		{Name: "subagent stop block", Event: "SubagentStop", D: d.Block, Want: `{"decision":"block","reason":"todos open"}`},
		{Name: "post tool block and context", Event: "PostToolUse", D: &event.Decision{Block: true, BlockReason: "r", Context: d.Context.Context}, Want: `{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"phase: implementation"}}`},
		{Name: "session end says nothing", Event: "SessionEnd", D: d.Block, Want: ""},
		{Name: "warning to the user", Event: "PostCompact", D: &event.Decision{Warnings: []string{"config broken"}}, Want: `{"systemMessage":"config broken"}`},
	})
}

func TestUnreadable(t *testing.T) {
	codec.CheckUnreadable(t, []string{"", "Stop", "UserPromptSubmit", "SessionStart"}, hosttest.HookSpecificDeny)
}

// TestEncodeAskWithoutPrompts: under --dangerously-skip-permissions Claude
// Code approves a hook's "ask" and runs the call, so an Ask is a deny that
// tells the model to ask the user; in the prompting modes it stays an ask.
func TestEncodeAskWithoutPrompts(t *testing.T) {
	ask := &event.Decision{Verdict: event.Ask, Reason: "unsure"}
	for mode, want := range map[string]string{
		"bypassPermissions": "deny", "dontAsk": "deny",
		"default": "ask", "acceptEdits": "ask", "plan": "ask", "": "ask",
	} {
		ans := Encode(&event.Event{HostEvent: "PreToolUse", PermissionMode: mode}, ask)
		var out struct {
			HSO struct{ PermissionDecision, PermissionDecisionReason string } `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(ans.Stdout, &out); err != nil {
			t.Fatal(err)
		}
		if out.HSO.PermissionDecision != want || !strings.HasSuffix(out.HSO.PermissionDecisionReason, "unsure") {
			t.Errorf("%q: %s", mode, ans.Stdout)
		}
		if want == "deny" && !strings.Contains(out.HSO.PermissionDecisionReason, "Ask the user") {
			t.Errorf("%q: the deny does not tell the model to ask the user: %s", mode, ans.Stdout)
		}
	}
}
