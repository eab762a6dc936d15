package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A Codex 0.171.0 PostToolUse says nothing of the exit status (the output
// only); the rollout it names recorded it (the lines' shapes are the real
// ones, cut): a non-zero exit is a failure, zero and an unknown are not.
func TestDecodeExitFromRollout(t *testing.T) {
	rollout := func(code int) string {
		path := filepath.Join(t.TempDir(), "rollout.jsonl")
		lines := `{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"call_1"}}
{"timestamp":"t","type":"event_msg","payload":{"type":"item_completed","thread_id":"th","item":{"type":"CommandExecution","id":"call_1","status":"completed","aggregated_output":"x","exit_code":` + string(rune('0'+code)) + `}}}
`
		if err := os.WriteFile(path, []byte(lines), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	payload := func(path, tool string) []byte {
		b, _ := json.Marshal(map[string]any{"session_id": "s", "turn_id": "t", "transcript_path": path, "cwd": "/p",
			"hook_event_name": "PostToolUse", "model": "gpt-fake", "permission_mode": "bypassPermissions",
			"tool_name": tool, "tool_input": map[string]any{"command": "go build ./..."}, "tool_response": "main.go:3:2: undefined: x\n", "tool_use_id": "call_1"})
		return b
	}
	for _, tt := range []struct {
		name, path, tool string
		failed           bool
	}{
		{"exit 1", rollout(1), "Bash", true},
		{"exit 0", rollout(0), "Bash", false},
		{"no rollout", filepath.Join(t.TempDir(), "missing.jsonl"), "Bash", false},
		{"no transcript", "", "Bash", false},
	} {
		ev, err := Adapter{}.Decode(payload(tt.path, tt.tool), func(string) string { return "" }, time.Unix(0, 0))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if ev.Failed != tt.failed || (tt.failed && ev.Error != "exit code 1") {
			t.Errorf("%s: failed=%v error=%q, want %v", tt.name, ev.Failed, ev.Error, tt.failed)
		}
	}
}
