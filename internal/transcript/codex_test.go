package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Lines in the shapes Codex 0.171.0 wrote to its rollout around a shell
// call (cut to the keys that matter, plus a few it has).
const (
	codexCall   = `{"timestamp":"t","ordinal":9,"type":"response_item","payload":{"type":"function_call","status":"completed","id":"fc_1","name":"exec_command","arguments":"{\"cmd\":\"go build ./...\"}","call_id":"call_A"}}`
	codexDone   = `{"timestamp":"t","ordinal":11,"type":"event_msg","payload":{"type":"item_completed","thread_id":"th","turn_id":"tu","item":{"type":"CommandExecution","id":"call_A","process_id":"14623","command":["/bin/bash","-lc","go build ./..."],"status":"completed","aggregated_output":"main.go:3:2: undefined: x\n","exit_code":1,"duration":{"secs":0,"nanos":5458}}}}`
	codexOutput = `{"timestamp":"t","ordinal":12,"type":"response_item","payload":{"type":"function_call_output","id":"fco_1","call_id":"call_A","output":"Chunk ID: d8036f\nProcess exited with code 1\nOutput:\nmain.go:3:2: undefined: x\n"}}`
	codexTokens = `{"timestamp":"t","ordinal":13,"type":"event_msg","payload":{"type":"token_count","info":null}}`
)

func writeRollout(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCodexExitCode(t *testing.T) {
	path := writeRollout(t, codexCall, codexDone, codexOutput, codexTokens)
	if code, ok := CodexExitCode(path, "call_A"); !ok || code != 1 {
		t.Errorf("call_A: %d %v, want 1 true", code, ok)
	}
	// The command's record not written yet: the call stops the scan.
	if _, ok := CodexExitCode(writeRollout(t, codexDone, codexCall), "call_A"); ok {
		t.Error("a record older than the call was taken for it")
	}
	if _, ok := CodexExitCode(path, "call_B"); ok {
		t.Error("another call's record was taken")
	}
	old := `{"type":"event_msg","payload":{"type":"exec_command_end","call_id":"call_C","exit_code":0}}`
	if code, ok := CodexExitCode(writeRollout(t, old), "call_C"); !ok || code != 0 {
		t.Errorf("exec_command_end: %d %v, want 0 true", code, ok)
	}
	if _, ok := CodexExitCode(filepath.Join(t.TempDir(), "none.jsonl"), "call_A"); ok {
		t.Error("a missing rollout gave an exit code")
	}
}

// BenchmarkCodexExitCode reads a call's exit code from the end of a 4 MB
// rollout, the record a few lines from the end (as at PostToolUse).
func BenchmarkCodexExitCode(b *testing.B) {
	var lines []string
	for range 4000 {
		lines = append(lines, codexTokens+strings.Repeat(" ", 1000))
	}
	lines = append(lines, codexCall, codexDone, codexTokens)
	path := filepath.Join(b.TempDir(), "rollout.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := CodexExitCode(path, "call_A"); !ok {
			b.Fatal("not found")
		}
	}
}
