package gemini

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
	ctx := &event.Decision{Context: []event.Entry{{Text: "phase: implementation"}}}
	block := &event.Decision{Block: true, BlockReason: "todos open"}
	rewrite := &event.Decision{UpdatedInput: json.RawMessage(`{"command":"ls -a"}`)}
	tests := []struct {
		name  string
		event string
		d     *event.Decision
		want  string // exact JSON, "" for no output
	}{
		{"before deny", "BeforeTool", deny, `{"decision":"deny","reason":"rm -rf is blocked"}`},
		{"before deny without reason", "BeforeTool", &event.Decision{Verdict: event.Deny}, `{"decision":"deny","reason":"blocked by atreides"}`},
		{"before ask becomes deny", "BeforeTool", ask, `{"decision":"deny","reason":` + quote(askPrefix+"unsure") + `}`},
		{"before nothing", "BeforeTool", &event.Decision{}, ""},
		{"before plain allow says nothing", "BeforeTool", &event.Decision{Verdict: event.Allow, Reason: "fine"}, ""},
		{"before rewrite is an allow", "BeforeTool", rewrite, `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls -a"}}}`},
		{"before allow with rewrite", "BeforeTool", &event.Decision{Verdict: event.Allow, UpdatedInput: rewrite.UpdatedInput}, `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls -a"}}}`},
		{"before deny drops rewrite", "BeforeTool", &event.Decision{Verdict: event.Deny, Reason: "no", UpdatedInput: json.RawMessage(`{}`)}, `{"decision":"deny","reason":"no"}`},
		{"before tool context is not sent", "BeforeTool", ctx, ""},
		{"after tool context", "AfterTool", ctx, `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"phase: implementation"}}`},
		{"after tool block hides output", "AfterTool", block, `{"decision":"deny","reason":"todos open"}`},
		{"before agent context", "BeforeAgent", ctx, `{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"phase: implementation"}}`},
		{"before agent block drops the turn", "BeforeAgent", block, `{"decision":"deny","reason":"todos open"}`},
		{"session start context", "SessionStart", ctx, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: implementation"}}`},
		{"after agent keep going", "AfterAgent", block, `{"decision":"deny","reason":"todos open"}`},
		{"after agent context is not sent", "AfterAgent", ctx, ""},
		{"pre compress is advisory", "PreCompress", block, ""},
		{"session end says nothing", "SessionEnd", block, ""},
		{"model events say nothing", "BeforeModel", deny, ""},
		{"warning to the user", "PreCompress", &event.Decision{Warnings: []string{"config broken", "again"}}, `{"systemMessage":"config broken\nagain"}`},
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
	ans := Encode(&event.Event{HostEvent: "BeforeTool"}, &event.Decision{UpdatedInput: json.RawMessage(`{not json`)})
	if ans.Exit != 2 || !strings.Contains(string(ans.Stdout), `"decision":"deny"`) {
		t.Errorf("a rewrite that cannot be encoded must block, got %+v", ans)
	}
}

func TestUnreadable(t *testing.T) {
	ans := Unreadable("BeforeTool", host.ErrMalformed)
	if ans.Exit != 2 || !strings.Contains(ans.Stderr, "could not read") {
		t.Errorf("BeforeTool: %+v", ans)
	}
	var out struct{ Decision, Reason string }
	if err := json.Unmarshal(ans.Stdout, &out); err != nil {
		t.Fatal(err)
	}
	if out.Decision != "deny" || out.Reason != ans.Stderr {
		t.Errorf("not a deny with the stderr reason: %s", ans.Stdout)
	}
	for _, ev := range []string{"", "AfterAgent", "BeforeAgent", "SessionStart", "AfterTool", "BeforeModel"} {
		if ans := Unreadable(ev, host.ErrMalformed); len(ans.Stdout) != 0 || ans.Exit != 0 {
			t.Errorf("%q: want no decision, got %+v", ev, ans)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
