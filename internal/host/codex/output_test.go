package codex

import (
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

// Codex shows the model a PostToolUse block's reason instead of the
// output (verified on 0.169.0 and 0.171.0): a replacement is that reason.
func TestOutputReplacement(t *testing.T) {
	payload := func(response string) []byte {
		return []byte(`{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUse","model":"m","permission_mode":"bypassPermissions","turn_id":"t","tool_name":"Bash","tool_input":{"command":"grep -rn x"},"tool_use_id":"c1","tool_response":` + response + `}`)
	}
	cut := "a\n\n[atreides: output cut]"
	tests := []struct {
		name, response string
		d              *event.Decision
		replaceable    bool
		want           string
	}{
		{"shell output", `"a\nb\nc\n"`, &event.Decision{ReplaceOutput: &cut}, true,
			`{"decision":"block","reason":"a\n\n[atreides: output cut]"}`},
		{"another handler's block follows", `"a\nb\n"`, &event.Decision{ReplaceOutput: &cut, Block: true, BlockReason: "also this"}, true,
			`{"decision":"block","reason":"a\n\n[atreides: output cut]\n\nalso this"}`},
		{"an MCP result is not replaced", `{"content":[{"type":"text","text":"x"}]}`, &event.Decision{ReplaceOutput: &cut}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Decode(payload(tt.response), time.Unix(0, 0))
			if err != nil {
				t.Fatal(err)
			}
			if ev.ReplacesOutput != tt.replaceable || string(ev.Response) != tt.response {
				t.Errorf("replaceable %v, response %s", ev.ReplacesOutput, ev.Response)
			}
			if got := strings.TrimSpace(string(Encode(ev, tt.d).Stdout)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
