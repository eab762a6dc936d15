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
		t.Paths = patchPaths(in.Command)
	}
	return t, nil
}

// patchHeaders are the apply_patch lines that name a file, each followed by
// the path. "Move to" is the new name of an updated file: it is written too.
var patchHeaders = []string{"*** Update File:", "*** Add File:", "*** Delete File:", "*** Move to:"}

// patchPaths lists the files an apply_patch envelope touches, in order and
// without repeats.
func patchPaths(patch string) []string {
	var paths []string
	seen := map[string]bool{}
	for line := range strings.Lines(patch) {
		// Leading blanks are tolerated: Codex's own parser is lenient,
		// and a path the guard misses is worse than one it sees twice.
		line = strings.TrimSpace(line)
		for _, h := range patchHeaders {
			if rest, ok := strings.CutPrefix(line, h); ok {
				if p := strings.TrimSpace(rest); p != "" && !seen[p] {
					seen[p] = true
					paths = append(paths, p)
				}
				break
			}
		}
	}
	return paths
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
