package gemini

import (
	"encoding/json"
	"fmt"
	"github.com/atreides-dev/atreides/internal/host"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

func TestEncode(t *testing.T) {
	deny := &event.Decision{Verdict: event.Deny, Rule: "fs.rm-rf", Reason: "rm -rf is blocked"}
	ask := &event.Decision{Verdict: event.Ask, Reason: "unsure"}
	ctx := &event.Decision{Context: []event.Entry{{Text: "phase: implementation"}}}
	block := &event.Decision{Block: true, BlockReason: "todos open"}
	rewrite := &event.Decision{UpdatedInput: json.RawMessage(`{"command":"ls -a"}`)}
	codec.CheckEncode(t, []hosttest.Answer{
		{Name: "before deny", Event: "BeforeTool", D: deny, Want: `{"decision":"deny","reason":"rm -rf is blocked"}`},
		{Name: "before deny without reason", Event: "BeforeTool", D: &event.Decision{Verdict: event.Deny}, Want: `{"decision":"deny","reason":"blocked by atreides"}`},
		{Name: "before ask becomes deny", Event: "BeforeTool", D: ask, Want: `{"decision":"deny","reason":` + quote(host.AskDenied(cannotAsk, "unsure")) + `}`},
		{Name: "before nothing", Event: "BeforeTool", D: &event.Decision{}, Want: ""},
		{Name: "before plain allow says nothing", Event: "BeforeTool", D: &event.Decision{Verdict: event.Allow, Reason: "fine"}, Want: ""},
		{Name: "before rewrite is an allow", Event: "BeforeTool", D: rewrite, Want: `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls -a"}}}`},
		{Name: "before allow with rewrite", Event: "BeforeTool", D: &event.Decision{Verdict: event.Allow, UpdatedInput: rewrite.UpdatedInput}, Want: `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls -a"}}}`},
		{Name: "before deny drops rewrite", Event: "BeforeTool", D: &event.Decision{Verdict: event.Deny, Reason: "no", UpdatedInput: json.RawMessage(`{}`)}, Want: `{"decision":"deny","reason":"no"}`},
		{Name: "before tool context is not sent", Event: "BeforeTool", D: ctx, Want: ""},
		{Name: "after tool context", Event: "AfterTool", D: ctx, Want: `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"phase: implementation"}}`},
		{Name: "after tool block hides output", Event: "AfterTool", D: block, Want: `{"decision":"deny","reason":"todos open"}`},
		{Name: "before agent context", Event: "BeforeAgent", D: ctx, Want: `{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"phase: implementation"}}`},
		{Name: "before agent block drops the turn", Event: "BeforeAgent", D: block, Want: `{"decision":"deny","reason":"todos open"}`},
		{Name: "session start context", Event: "SessionStart", D: ctx, Want: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: implementation"}}`},
		{Name: "after agent keep going", Event: "AfterAgent", D: block, Want: `{"decision":"deny","reason":"todos open"}`},
		{Name: "after agent context is not sent", Event: "AfterAgent", D: ctx, Want: ""},
		{Name: "pre compress is advisory", Event: "PreCompress", D: block, Want: ""},
		{Name: "session end says nothing", Event: "SessionEnd", D: block, Want: ""},
		{Name: "model events say nothing", Event: "BeforeModel", D: deny, Want: ""},
		{Name: "warning to the user", Event: "PreCompress", D: &event.Decision{Warnings: []string{"config broken", "again"}}, Want: `{"systemMessage":"config broken\nagain"}`},
	})
}

func TestEncodeBrokenRewriteFailsClosed(t *testing.T) {
	ans := Encode(&event.Event{HostEvent: "BeforeTool"}, &event.Decision{UpdatedInput: json.RawMessage(`{not json`)})
	if ans.Exit != 2 || !strings.Contains(string(ans.Stdout), `"decision":"deny"`) {
		t.Errorf("a rewrite that cannot be encoded must block, got %+v", ans)
	}
}

func TestUnreadable(t *testing.T) {
	codec.CheckUnreadable(t, []string{"", "AfterAgent", "BeforeAgent", "SessionStart", "AfterTool", "BeforeModel"}, geminiDeny)
}

// geminiDeny accepts Gemini CLI's deny: a top-level decision whose reason
// is the one on stderr.
func geminiDeny(_ string, ans host.Answer) error {
	var out struct{ Decision, Reason string }
	if err := json.Unmarshal(ans.Stdout, &out); err != nil {
		return err
	}
	if out.Decision != "deny" || out.Reason != ans.Stderr {
		return fmt.Errorf("not a deny with the stderr reason: %s", ans.Stdout)
	}
	return nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
