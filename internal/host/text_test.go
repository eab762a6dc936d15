package host

import "testing"

func TestSniffEventName(t *testing.T) {
	for in, want := range map[string]string{
		`{"session_id":"s","hook_event_name":"PreToolUse","tool_input":{"command":"rm -`: "PreToolUse",
		`{"hook_event_name" :  "BeforeTool"`:                                             "BeforeTool",
		`{"hook_event_name":`:                                                            "",
		`{"hook_event_name":"Pre`:                                                        "",
		`garbage`:                                                                        "",
	} {
		if got := SniffEventName([]byte(in)); got != want {
			t.Errorf("SniffEventName(%q) = %q, want %q", in, got, want)
		}
	}
}
