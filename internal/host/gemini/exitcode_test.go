package gemini

import (
	"encoding/json"
	"testing"
	"time"
)

// TestDecodeShellExitCode: Gemini CLI 0.61.0 says a shell command failed
// only in llmContent's trailer ("Exit Code: 1", in the shape its
// ShellToolInvocation writes and AfterTool receives), with no error field.
// Such a call is a failure; a zero exit, an "Exit Code" inside the output,
// and a command the user cancelled are not.
func TestDecodeShellExitCode(t *testing.T) {
	wrap := func(body string) string { return "<untrusted_context>\n" + body + "\n</untrusted_context>" }
	tests := []struct {
		name, content string
		failed        bool
		errText       string
	}{
		{"exit 1", wrap("Output: main.go:3:2: undefined: x\nExit Code: 1\nProcess Group PGID: 5820"), true, "exit code 1"},
		{"exit 2 no pgid", "Output: (empty)\nExit Code: 2", true, "exit code 2"},
		{"signal", wrap("Output: (empty)\nSignal: SIGKILL\nProcess Group PGID: 77"), true, "killed by signal SIGKILL"},
		{"exit and error", wrap("Output: x\nError: spawn failed\nExit Code: 127\nProcess Group PGID: 1"), true, "exit code 127"},
		{"success", wrap("Output: hi\nProcess Group PGID: 5820"), false, ""},
		{"exit code in the output", wrap("Output: Exit Code: 1\nall good\nProcess Group PGID: 9"), false, ""},
		// The command printed an earlier call's trailer (a log of shell
		// results): the real trailer is read, not the one above it.
		{"a trailer in the output", wrap("Output: $ go vet\nExit Code: 1\nProcess Group PGID: 4\nProcess Group PGID: 9"), false, ""},
		{"cancelled", "Command was cancelled by user before it could complete. There was no output before it was cancelled.", false, ""},
		{"background", "Command moved to background (PID: 12). Output hidden. Press Ctrl+B to view.", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content, _ := json.Marshal(tt.content)
			in := `{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"go build ./..."},"tool_response":{"llmContent":` + string(content) + `,"returnDisplay":""}}`
			ev, err := Decode([]byte(in), "", time.Unix(0, 0))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Failed != tt.failed || ev.Error != tt.errText {
				t.Errorf("failed=%v error=%q, want %v %q", ev.Failed, ev.Error, tt.failed, tt.errText)
			}
		})
	}
	// Another tool's text is not a shell trailer.
	in := `{"hook_event_name":"AfterTool","tool_name":"read_file","tool_input":{"file_path":"a"},"tool_response":{"llmContent":"Output: x\nExit Code: 1"}}`
	if ev, err := Decode([]byte(in), "", time.Unix(0, 0)); err != nil || ev.Failed {
		t.Errorf("read_file with an exit-code-like text: failed=%v err=%v", ev.Failed, err)
	}
}
