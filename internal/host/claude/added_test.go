package claude

import (
	"testing"
	"time"
)

// TestAddedLines: a PostToolUse of Write over an existing file counts only
// the lines the original did not hold; Edit and MultiEdit the lines of
// their new strings; a PreToolUse carries none.
func TestAddedLines(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"write over a file", `{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/p/a.go","content":"a\n// new\nb\n"},"tool_response":{"type":"update","filePath":"/p/a.go","content":"a\n// new\nb\n","originalFile":"a\nb\n","structuredPatch":[]}}`, []string{"// new"}},
		{"write of a new file", `{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/p/a.go","content":"a\nb"},"tool_response":{"type":"create","filePath":"/p/a.go","content":"a\nb","originalFile":null}}`, []string{"a", "b"}},
		{"edit", `{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/p/a.go","old_string":"f()","new_string":"// x\nf()"},"tool_response":{}}`, []string{"// x"}},
		{"multi-edit", `{"hook_event_name":"PostToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/p/a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"c\nd"}]},"tool_response":{}}`, []string{"b", "d"}},
		{"pre tool", `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/p/a.go","content":"a"}}`, nil},
		{"failure", `{"hook_event_name":"PostToolUseFailure","tool_name":"Write","tool_input":{"file_path":"/p/a.go","content":"a"},"error":"x"}`, nil},
	}
	for _, tt := range tests {
		ev, err := Decode([]byte(tt.in), "", time.Unix(0, 0))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []string
		for _, f := range ev.Tool.Added {
			if f.Path != "/p/a.go" {
				t.Errorf("%s: path %q", tt.name, f.Path)
			}
			for i, l := range f.Lines {
				if f.IsNew(i) {
					got = append(got, l)
				}
			}
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: added %q, want %q", tt.name, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: added %q, want %q", tt.name, got, tt.want)
			}
		}
	}
}
