package claude

import (
	"encoding/json"
	"github.com/atreides-dev/atreides/internal/host"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

func TestEncode(t *testing.T) {
	deny := &event.Decision{Verdict: event.Deny, Rule: "git.reset-hard", Reason: "use git stash"}
	ask := &event.Decision{Verdict: event.Ask, Reason: "unsure"}
	ctx := &event.Decision{Context: []event.Entry{{Text: "phase: implementation"}}}
	block := &event.Decision{Block: true, BlockReason: "todos open"}
	rewrite := &event.Decision{UpdatedInput: json.RawMessage(`{"command":"ls -a"}`)}
	tests := []struct {
		name  string
		event string
		d     *event.Decision
		want  string // exact JSON, "" for no output
	}{
		{"pre deny", "PreToolUse", deny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"use git stash"}}`},
		{"pre ask", "PreToolUse", ask, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"unsure"}}`},
		{"pre nothing", "PreToolUse", &event.Decision{}, ""},
		{"pre rewrite needs allow", "PreToolUse", rewrite, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"}}}`},
		{"pre deny drops rewrite", "PreToolUse", &event.Decision{Verdict: event.Deny, Reason: "no", UpdatedInput: json.RawMessage(`{}`)}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{"permission deny", "PermissionRequest", deny, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"use git stash"}}}`},
		{"permission ask leaves it to the user", "PermissionRequest", ask, ""},
		{"session start context", "SessionStart", ctx, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: implementation"}}`},
		{"stop block", "Stop", block, `{"decision":"block","reason":"todos open"}`},
		{"subagent stop block", "SubagentStop", block, `{"decision":"block","reason":"todos open"}`},
		{"post tool block and context", "PostToolUse", &event.Decision{Block: true, BlockReason: "r", Context: ctx.Context}, `{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"phase: implementation"}}`},
		{"session end says nothing", "SessionEnd", block, ""},
		{"warning to the user", "PostCompact", &event.Decision{Warnings: []string{"config broken"}}, `{"systemMessage":"config broken"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := Encode(&event.Event{HostEvent: tt.event}, tt.d)
			if got := strings.TrimSpace(string(ans.Stdout)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if ans.Exit != 0 {
				t.Errorf("exit %d", ans.Exit)
			}
		})
	}
}

func TestUnreadable(t *testing.T) {
	for _, ev := range []string{"PreToolUse", "PermissionRequest"} {
		ans := (Adapter{}).Unreadable(ev, host.ErrMalformed)
		if ans.Exit != 2 || !strings.Contains(ans.Stderr, "could not read") {
			t.Errorf("%s: %+v", ev, ans)
		}
		var out struct {
			HSO struct {
				PermissionDecision string                    `json:"permissionDecision"`
				Decision           struct{ Behavior string } `json:"decision"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(ans.Stdout, &out); err != nil {
			t.Fatal(err)
		}
		if out.HSO.PermissionDecision != "deny" && out.HSO.Decision.Behavior != "deny" {
			t.Errorf("%s: not a deny: %s", ev, ans.Stdout)
		}
	}
	for _, ev := range []string{"", "Stop", "UserPromptSubmit", "SessionStart"} {
		if ans := (Adapter{}).Unreadable(ev, host.ErrMalformed); len(ans.Stdout) != 0 || ans.Exit != 0 {
			t.Errorf("%q: want no decision, got %+v", ev, ans)
		}
	}
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
