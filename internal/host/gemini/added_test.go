package gemini

import (
	"testing"
	"time"
)

func TestAddedLines(t *testing.T) {
	in := `{"hook_event_name":"AfterTool","session_id":"s","cwd":"/p","tool_name":"write_file","tool_input":{"file_path":"/p/a.sh","content":"a\n# new\n"},"tool_response":{"llmContent":"ok","returnDisplay":{"fileName":"a.sh","originalContent":"a\n","newContent":"a\n# new\n"}}}`
	ev, err := Decode([]byte(in), "", time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	f := ev.Tool.Added
	if len(f) != 1 || f[0].Path != "/p/a.sh" || f[0].IsNew(0) || !f[0].IsNew(1) {
		t.Errorf("added = %+v", f)
	}
	in = `{"hook_event_name":"AfterTool","session_id":"s","cwd":"/p","tool_name":"replace","tool_input":{"file_path":"/p/a.sh","old_string":"a","new_string":"# x\na"},"tool_response":{"llmContent":"ok"}}`
	if ev, err = Decode([]byte(in), "", time.Unix(0, 0)); err != nil || len(ev.Tool.Added) != 1 || !ev.Tool.Added[0].IsNew(0) || ev.Tool.Added[0].IsNew(1) {
		t.Errorf("replace: %v %+v", err, ev.Tool.Added)
	}
}
