package gemini

import (
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

// Gemini CLI 0.61.0 reads no output replacement from AfterTool: the
// response is decoded, but a replacement is never sent.
func TestNoOutputReplacement(t *testing.T) {
	response := `{"llmContent":"a\nb","returnDisplay":"a\nb"}`
	data := []byte(`{"session_id":"s","cwd":"/p","hook_event_name":"AfterTool","timestamp":"t","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_response":` + response + `}`)
	ev, err := Decode(data, "/p", time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if ev.ReplacesOutput || ev.FullOutput != "a\nb" || string(ev.Response) != response {
		t.Errorf("replaceable %v, text %q, response %s", ev.ReplacesOutput, ev.FullOutput, ev.Response)
	}
	cut := "cut"
	if got := strings.TrimSpace(string(Encode(ev, &event.Decision{ReplaceOutput: &cut}).Stdout)); got != "" {
		t.Errorf("answer %s, want none", got)
	}
}
