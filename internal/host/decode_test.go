package host

import (
	"errors"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

type testPayload struct {
	HookEventName string `json:"hook_event_name"`
	ToolName      string `json:"tool_name"`
}

func (p testPayload) EventName() string { return p.HookEventName }

func TestDecodePayload(t *testing.T) {
	kinds := Kinds{"PreToolUse": event.PreTool, "Stop": event.Stop}
	tests := []struct {
		name, in  string
		hostEvent string
		kind      event.Kind
		malformed bool
	}{
		{"ok", `{"hook_event_name":"Stop"}`, "Stop", event.Stop, false},
		{"unknown event", `{"hook_event_name":"Other"}`, "Other", event.Unknown, false},
		{"cut short keeps the tool call", `{"hook_event_name":"PreToolUse","tool_name":"Ba`, "PreToolUse", event.PreTool, true},
		{"no event name", `{"tool_name":"Bash"}`, "", event.Unknown, true},
		{"duplicate key", `{"hook_event_name":"Stop","hook_event_name":"Stop"}`, "Stop", event.Stop, true},
		{"not json", `hello`, "", event.Unknown, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ev, err := DecodePayload[testPayload]("h", nil, []byte(tt.in), kinds, time.Unix(1, 0))
			if got := errors.Is(err, ErrMalformed); got != tt.malformed {
				t.Fatalf("err = %v, malformed want %v", err, tt.malformed)
			}
			if ev.Host != "h" || ev.HostEvent != tt.hostEvent || ev.Kind != tt.kind || !ev.Time.Equal(time.Unix(1, 0)) {
				t.Errorf("event %+v", ev)
			}
		})
	}
}

func TestRequireTool(t *testing.T) {
	pre := &event.Event{Kind: event.PreTool, HostEvent: "PreToolUse"}
	if err := RequireTool(pre, ""); !errors.Is(err, ErrMalformed) {
		t.Errorf("tool call without tool: %v", err)
	}
	if err := RequireTool(pre, "Bash"); err != nil {
		t.Error(err)
	}
	if err := RequireTool(&event.Event{Kind: event.Stop}, ""); err != nil {
		t.Error(err)
	}
}

func TestJSONAnswer(t *testing.T) {
	fallback := func(reason string) Answer { return Answer{Stderr: reason, Exit: 2} }
	if a := JSONAnswer(struct{}{}, true, fallback); len(a.Stdout) != 0 || a.Exit != 0 {
		t.Errorf("empty: %+v", a)
	}
	if a := JSONAnswer(map[string]string{"a": "b"}, false, fallback); string(a.Stdout) != "{\"a\":\"b\"}\n" {
		t.Errorf("json: %q", a.Stdout)
	}
	broken := struct {
		R rawJSON `json:"r"`
	}{R: rawJSON("{")}
	if a := JSONAnswer(broken, false, fallback); a.Exit != 2 || a.Stderr == "" {
		t.Errorf("broken raw JSON did not fall back to the block: %+v", a)
	}
	b := Block(map[string]string{"decision": "deny"}, "why")
	if b.Exit != 2 || b.Stderr != "why" || string(b.Stdout) != "{\"decision\":\"deny\"}\n" {
		t.Errorf("block: %+v", b)
	}
	if OrDefault(" ", "d") != "d" || OrDefault("r", "d") != "r" || NonEmptyReason("") != DefaultReason {
		t.Error("OrDefault")
	}
	if got := AskDenied("a hook cannot ask", "r"); got != "atreides wants the user to confirm this call, and a hook cannot ask, so it was not run. Ask the user; if they agree they can run it themselves or allow it in the atreides policy. Reason: r" {
		t.Errorf("AskDenied: %q", got)
	}
}

type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }
