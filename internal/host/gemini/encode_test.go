package gemini

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
	codec.CheckEncode(t, []hosttest.Answer{
		{Name: "before deny", Event: "BeforeTool", D: d.Deny, Want: `{"decision":"deny","reason":"rm -rf is blocked"}`},
		{Name: "before deny without reason", Event: "BeforeTool", D: &event.Decision{Verdict: event.Deny}, Want: `{"decision":"deny","reason":"blocked by atreides"}`},
		{Name: "before ask becomes deny", Event: "BeforeTool", D: d.Ask, Want: `{"decision":"deny","reason":` + hosttest.JSONString(host.AskDenied(cannotAsk, "unsure")) + `}`},
		{Name: "before nothing", Event: "BeforeTool", D: &event.Decision{}, Want: ""},
		{Name: "before plain allow says nothing", Event: "BeforeTool", D: &event.Decision{Verdict: event.Allow, Reason: "fine"}, Want: ""},
		{Name: "before rewrite is an allow", Event: "BeforeTool", D: d.Rewrite, Want: `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls -a"}}}`},
		{Name: "before allow with rewrite", Event: "BeforeTool", D: &event.Decision{Verdict: event.Allow, UpdatedInput: d.Rewrite.UpdatedInput}, Want: `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls -a"}}}`},
		{Name: "before deny drops rewrite", Event: "BeforeTool", D: &event.Decision{Verdict: event.Deny, Reason: "no", UpdatedInput: json.RawMessage(`{}`)}, Want: `{"decision":"deny","reason":"no"}`},
		{Name: "before tool context is not sent", Event: "BeforeTool", D: d.Context, Want: ""},
		{Name: "after tool context", Event: "AfterTool", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"phase: implementation"}}`},
		{Name: "after tool block hides output", Event: "AfterTool", D: d.Block, Want: `{"decision":"deny","reason":"todos open"}`},
		{Name: "before agent context", Event: "BeforeAgent", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"phase: implementation"}}`},
		{Name: "before agent block drops the turn", Event: "BeforeAgent", D: d.Block, Want: `{"decision":"deny","reason":"todos open"}`},
		{Name: "session start context", Event: "SessionStart", D: d.Context, Want: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"\u003c!-- atreides:start --\u003e\nphase: implementation\n\u003c!-- /atreides:start --\u003e"}}`},
		{Name: "after agent keep going", Event: "AfterAgent", D: d.Block, Want: `{"decision":"deny","reason":"todos open"}`},
		{Name: "after agent context is not sent", Event: "AfterAgent", D: d.Context, Want: ""},
		{Name: "pre compress is advisory", Event: "PreCompress", D: d.Block, Want: ""},
		{Name: "session end says nothing", Event: "SessionEnd", D: d.Block, Want: ""},
		{Name: "model events say nothing", Event: "BeforeModel", D: d.Deny, Want: ""},
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
