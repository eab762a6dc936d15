package copilot

import (
	"encoding/json"
	"testing"
	"time"
)

// TestDecodeShellExitCode: Copilot CLI 1.0.102 sends postToolUse for a
// failing command with resultType "success" (captured through the real
// CLI: `test -f missing.txt` gave the first row's text); the exit line at
// the end of the text is what says it failed. A zero exit, an exit line
// printed in the middle of the output, and another tool's text are not
// failures.
func TestDecodeShellExitCode(t *testing.T) {
	tests := []struct {
		name, tool, text string
		failed           bool
		errText          string
	}{
		{"exit 1, no output", "bash", "\n<shellId: 0 completed with exit code 1>", true, "exit code 1"},
		{"exit 2 after output", "bash", "ls: cannot access 'x': No such file or directory\n<shellId: 3 completed with exit code 2>", true, "exit code 2"},
		{"detached", "bash", "boom\n<detached command with shellId: 7 completed with exit code 127>", true, "exit code 127"},
		{"past sandbox notes", "bash", "denied\n<shellId: 1 completed with exit code 1>\n<this failure may be caused by the active sandbox policy. see docs>", true, "exit code 1"},
		{"crlf and trailing blanks", "bash", "x\r\n<shellId: 0 completed with exit code 1> \r\n\n", true, "exit code 1"},
		{"success", "bash", "hi\n<shellId: 0 completed with exit code 0>", false, ""},
		{"exit line in the middle", "bash", "<shellId: 0 completed with exit code 1>\nall good\n<shellId: 4 completed with exit code 0>", false, ""},
		{"exit line then output", "bash", "<shellId: 0 completed with exit code 1>\nall good", false, ""},
		{"no exit line", "bash", "still running", false, ""},
		{"not a number", "bash", "<shellId: 0 completed with exit code one>", false, ""},
		{"another tool", "view", "1. <shellId: 0 completed with exit code 1>", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _ := json.Marshal(tt.text)
			args := `{"command":"test -f missing.txt","description":"d"}`
			if tt.tool == "view" {
				args = `{"path":"/p/log.txt"}`
			}
			in := `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"` + tt.tool + `","toolArgs":` + args + `,"toolResult":{"resultType":"success","textResultForLlm":` + string(text) + `}}`
			ev, err := Decode([]byte(in), "", time.Unix(0, 0))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Failed != tt.failed || ev.Error != tt.errText {
				t.Errorf("failed=%v error=%q, want %v %q", ev.Failed, ev.Error, tt.failed, tt.errText)
			}
		})
	}
}
