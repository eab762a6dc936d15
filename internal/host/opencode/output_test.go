package opencode

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

// tool.execute.after: the output string is the event's response and text,
// OpenCode's own saved file (metadata.outputPath, when it truncated the
// output itself) its OutputFile, and a replacement goes back as the
// Result's output.
func TestOutputReplacement(t *testing.T) {
	raw := json.RawMessage(`{"directory":"/p","input":{"tool":"bash","sessionID":"ses_1","callID":"c1","args":{"command":"grep -rn x"}},` +
		`"output":{"title":"grep","output":"...output truncated...\n\nFull output saved to: /d/tool_1\n\nb\nc","metadata":{"exit":0,"truncated":true,"outputPath":"/d/tool_1"}}}`)
	ev, err := Decode(MethodToolAfter, raw, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	text := "...output truncated...\n\nFull output saved to: /d/tool_1\n\nb\nc"
	if ev.FullOutput != text || ev.OutputFile != "/d/tool_1" || !ev.ReplacesOutput || string(ev.Response) != `"...output truncated...\n\nFull output saved to: /d/tool_1\n\nb\nc"` {
		t.Errorf("decoded %q file %q replaceable %v response %s", ev.FullOutput, ev.OutputFile, ev.ReplacesOutput, ev.Response)
	}
	cut := "a\n\n[atreides: output cut]"
	r := Encode(ev, &event.Decision{ReplaceOutput: &cut, Context: []event.Entry{{Text: "note"}}})
	got, _ := json.Marshal(r)
	if want := `{"append":"note","output":"a\n\n[atreides: output cut]"}`; string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if r := Encode(&event.Event{HostEvent: "tool.execute.before"}, &event.Decision{ReplaceOutput: &cut}); !r.Empty() {
		t.Errorf("replacement outside tool.execute.after: %+v", r)
	}
}
