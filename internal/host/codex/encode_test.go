package codex

import (
	"encoding/json"
	"github.com/atreides-dev/atreides/internal/host"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

func TestEncode(t *testing.T) {
	deny := &event.Decision{Verdict: event.Deny, Rule: "fs.rm-rf", Reason: "rm -rf is blocked"}
	ask := &event.Decision{Verdict: event.Ask, Reason: "unsure"}
	allow := &event.Decision{Verdict: event.Allow, Reason: "fine"}
	ctx := &event.Decision{Context: []event.Entry{{Text: "phase: implementation"}}}
	block := &event.Decision{Block: true, BlockReason: "todos open"}
	rewrite := &event.Decision{UpdatedInput: json.RawMessage(`{"command":"ls -a"}`)}
	tests := []struct {
		name  string
		event string
		d     *event.Decision
		want  string // exact JSON, "" for no output
	}{
		{"pre deny", "PreToolUse", deny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is blocked"}}`},
		{"pre deny needs a reason", "PreToolUse", &event.Decision{Verdict: event.Deny}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by atreides"}}`},
		{"pre ask becomes deny", "PreToolUse", ask, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":` + quote(askPrefix+"unsure") + `}}`},
		{"pre nothing", "PreToolUse", &event.Decision{}, ""},
		{"pre plain allow is unsupported", "PreToolUse", allow, ""},
		{"pre rewrite is an allow", "PreToolUse", rewrite, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"}}}`},
		{"pre allow with rewrite drops the reason", "PreToolUse", &event.Decision{Verdict: event.Allow, Reason: "fine", UpdatedInput: rewrite.UpdatedInput}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"}}}`},
		{"pre deny drops rewrite", "PreToolUse", &event.Decision{Verdict: event.Deny, Reason: "no", UpdatedInput: json.RawMessage(`{}`)}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{"pre context is not sent", "PreToolUse", ctx, ""},
		{"permission deny", "PermissionRequest", deny, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"rm -rf is blocked"}}}`},
		{"permission allow without rewrite", "PermissionRequest", &event.Decision{Verdict: event.Allow, UpdatedInput: rewrite.UpdatedInput}, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{"permission ask leaves it to the user", "PermissionRequest", ask, ""},
		{"post tool context", "PostToolUse", ctx, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"phase: implementation"}}`},
		{"post tool block and context", "PostToolUse", &event.Decision{Block: true, BlockReason: "r", Context: ctx.Context}, `{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"phase: implementation"}}`},
		{"prompt block", "UserPromptSubmit", block, `{"decision":"block","reason":"todos open"}`},
		{"prompt context", "UserPromptSubmit", ctx, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"phase: implementation"}}`},
		{"session start context", "SessionStart", ctx, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: implementation"}}`},
		{"subagent start context", "SubagentStart", ctx, `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"phase: implementation"}}`},
		{"stop block", "Stop", block, `{"decision":"block","reason":"todos open"}`},
		{"stop block needs a reason", "Stop", &event.Decision{Block: true}, `{"decision":"block","reason":"blocked by atreides"}`},
		{"subagent stop block", "SubagentStop", block, `{"decision":"block","reason":"todos open"}`},
		{"stop context is not sent", "Stop", ctx, ""},
		{"pre compact cannot be refused", "PreCompact", block, ""},
		{"warning to the user", "PostCompact", &event.Decision{Warnings: []string{"config broken"}}, `{"systemMessage":"config broken"}`},
		{"session end takes no answer", "SessionEnd", &event.Decision{Warnings: []string{"x"}, Block: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := Encode(&event.Event{HostEvent: tt.event}, tt.d)
			if got := strings.TrimSpace(string(ans.Stdout)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if ans.Exit != 0 || ans.Stderr != "" {
				t.Errorf("exit %d stderr %q", ans.Exit, ans.Stderr)
			}
		})
	}
}

func TestEncodeBrokenRewriteFailsClosed(t *testing.T) {
	ans := Encode(&event.Event{HostEvent: "PreToolUse"}, &event.Decision{UpdatedInput: json.RawMessage(`{not json`)})
	if ans.Exit != 2 || !strings.Contains(string(ans.Stdout), `"permissionDecision":"deny"`) {
		t.Errorf("a rewrite that cannot be encoded must block, got %+v", ans)
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
				HookEventName      string                    `json:"hookEventName"`
				PermissionDecision string                    `json:"permissionDecision"`
				Decision           struct{ Behavior string } `json:"decision"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(ans.Stdout, &out); err != nil {
			t.Fatal(err)
		}
		if out.HSO.HookEventName != ev || (out.HSO.PermissionDecision != "deny" && out.HSO.Decision.Behavior != "deny") {
			t.Errorf("%s: not a deny: %s", ev, ans.Stdout)
		}
	}
	for _, ev := range []string{"", "Stop", "UserPromptSubmit", "SessionStart", "PostToolUse"} {
		if ans := (Adapter{}).Unreadable(ev, host.ErrMalformed); len(ans.Stdout) != 0 || ans.Exit != 0 {
			t.Errorf("%q: want no decision, got %+v", ev, ans)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
