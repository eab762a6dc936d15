package codex

import (
	"testing"
	"time"
)

func TestAddedLines(t *testing.T) {
	in := `{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/p","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a.py\n+# now uses b\n+x = 1\n*** End Patch\n"},"tool_response":"ok"}`
	ev, err := Decode([]byte(in), time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Tool.Added) != 1 || ev.Tool.Added[0].Path != "a.py" || len(ev.Tool.Added[0].Lines) != 2 || ev.Tool.Added[0].Lines[0] != "# now uses b" {
		t.Errorf("added = %+v", ev.Tool.Added)
	}
}
