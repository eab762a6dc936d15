package transcript

import (
	"bytes"
	"encoding/json"
)

// codexTail bounds how much of a Codex rollout CodexExitCode reads: the
// command's record is among the last lines when its PostToolUse runs, but
// it holds the command's whole output (aggregated_output), so the bound
// is generous; the scan stops at the record, or at the call itself.
const codexTail = 16 << 20

// codexLine is the part of a Codex rollout line that says how a command
// ended. Codex 0.171.0 writes it as an event_msg "item_completed" whose
// item is the CommandExecution (id: the call's id, exit_code), before it
// runs the PostToolUse hooks (seen in a hook that read the rollout then);
// earlier versions wrote "exec_command_end" with call_id and exit_code.
type codexLine struct {
	Type    string `json:"type"`
	Payload struct {
		Type     string `json:"type"`
		CallID   string `json:"call_id"`
		ExitCode *int   `json:"exit_code"`
		Item     struct {
			Type     string `json:"type"`
			ID       string `json:"id"`
			ExitCode *int   `json:"exit_code"`
		} `json:"item"`
	} `json:"payload"`
}

// CodexExitCode is the exit code Codex recorded in its rollout (the
// transcript_path of its hooks) for the shell call callID; false when the
// rollout has none (not written yet, another format, unreadable): the
// caller then knows nothing, which is not a success either.
func CodexExitCode(path, callID string) (int, bool) {
	if path == "" || callID == "" {
		return 0, false
	}
	quoted, err := json.Marshal(callID)
	if err != nil {
		return 0, false
	}
	var code int
	found := false
	_ = ScanFile(path, codexTail, func(line []byte) bool {
		if !bytes.Contains(line, quoted) {
			return false
		}
		var l codexLine
		if json.Unmarshal(line, &l) != nil {
			return false
		}
		p := &l.Payload
		switch {
		case l.Type != "event_msg":
			// The call itself (a response_item): nothing older is about it.
			return l.Type == "response_item" && p.Type == "function_call"
		case p.Type == "item_completed" && p.Item.Type == "CommandExecution" && p.Item.ID == callID && p.Item.ExitCode != nil:
			code, found = *p.Item.ExitCode, true
		case p.Type == "exec_command_end" && p.CallID == callID && p.ExitCode != nil:
			code, found = *p.ExitCode, true
		}
		return found
	})
	return code, found
}
