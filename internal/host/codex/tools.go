package codex

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// toolInput holds the input fields atreides looks at. Codex reports its
// shell tools (exec_command, shell) as "Bash" with {command}, and
// apply_patch with the patch text in command.
type toolInput struct {
	Command string `json:"command"`
}

// NormalizeTool maps a Codex tool to atreides's names and pulls out the
// command or the paths the guard judges.
func NormalizeTool(name string, input json.RawMessage) (event.Tool, error) {
	t := event.Tool{Raw: name, Input: input, Name: event.Other}
	switch {
	case name == "Bash":
		t.Name = event.Shell
	case name == "apply_patch":
		t.Name = event.Edit
	case name == "spawn_agent":
		// Its multi-agent tool ({agent_type, message, ...}): a delegation.
		// 0.169.0 documented hooks for shell, apply_patch and MCP tools
		// only; 0.171.0 hooks it too, with the call's arguments as input.
		t.Name = event.Delegate
	case strings.HasPrefix(name, "mcp__"):
		t.Name = event.ToolName("mcp:" + strings.TrimPrefix(name, "mcp__"))
	}
	var in toolInput
	if err := hookjson.ReadToolInput(name, t.Name, input, &in); err != nil {
		return t, err
	}
	switch t.Name {
	case event.Shell:
		t.Command = in.Command
	case event.Edit:
		t.Paths = host.PatchPaths(in.Command)
	}
	return t, nil
}

// addedLines is what an apply_patch added: the + lines of its envelope,
// per file. Codex reports no failed patch apart, so a patch that did not
// apply is read too; the comment checker only advises.
func addedLines(t event.Tool) []event.FileLines {
	var in toolInput
	if strictjson.Unmarshal(t.Input, &in) != nil {
		return nil
	}
	return host.PatchAdded(in.Command)
}
