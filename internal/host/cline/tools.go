package cline

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// ShellTool is Cline's shell tool: run_commands {commands: string[]},
// each command run in a shell of its own.
const ShellTool = "run_commands"

// toolName is atreides's name for one of Cline 3.0.65's built-in tools
// (names from the function declarations it sends the model), and whether
// it is one: an unknown tool (an MCP server's, a newer CLI's) is Other.
func toolName(name string) (event.ToolName, bool) {
	switch name {
	case ShellTool:
		return event.Shell, true
	case "read_files":
		return event.Read, true
	case "editor":
		return event.Edit, true
	case "search_codebase":
		return event.Search, true
	case "fetch_web_content":
		return event.Fetch, true
	case "spawn_agent":
		return event.Delegate, true
	case "ask_question":
		return event.Other, true
	}
	if strings.Contains(name, "__") {
		// An MCP server's tool, <server>__<tool> (no built-in name holds
		// "__"): atreides's own are atreides__todo_add and so on.
		return event.ToolName("mcp:" + name), false
	}
	if strings.HasPrefix(name, "team_") {
		// The team tools (team_spawn_teammate, team_task, ...) spawn and
		// steer teammates: what they run fires its own hooks.
		return event.Other, true
	}
	return event.Other, false
}

// Builtin reports whether name is one of Cline's built-in tools, whose
// input Cline checks against a closed schema before running it.
func Builtin(name string) bool {
	_, ok := toolName(name)
	return ok
}

// toolInput holds the input fields atreides looks at in any tool.
type toolInput struct {
	Commands []string `json:"commands"`
	Files    []struct {
		Path string `json:"path"`
	} `json:"files"`
	Path    string          `json:"path"`
	OldText *string         `json:"old_text"`
	NewText string          `json:"new_text"`
	Insert  json.RawMessage `json:"insert_line"`
	Queries []string        `json:"queries"`
}

// NormalizeTool maps a Cline tool to atreides's names and pulls out the
// command or paths the guard judges. run_commands' commands are joined
// one a line, and judged as one script: the encoder makes Cline run
// exactly that script when there are several (see [Encode]), so that no
// command can hide another from the guard (a here-document left open).
func NormalizeTool(name string, input json.RawMessage) (event.Tool, error) {
	n, _ := toolName(name)
	t := event.Tool{Raw: name, Input: input, Name: n}
	var in toolInput
	if len(input) > 0 && input[0] != '{' && string(input) != "null" {
		return t, host.Malformed("input of %s is not an object", name)
	}
	if len(input) > 0 {
		if err := host.DecodeToolInput(input, n, &in); err != nil {
			return t, err
		}
	}
	switch n {
	case event.Shell:
		t.Command = strings.Join(in.Commands, "\n")
	case event.Read:
		for _, f := range in.Files {
			if f.Path != "" {
				t.Paths = append(t.Paths, f.Path)
			}
		}
	case event.Edit:
		if in.Path != "" {
			t.Paths = []string{in.Path}
		}
		if in.OldText == nil && (len(in.Insert) == 0 || string(in.Insert) == "null") {
			// No text to replace and no line to insert at: the editor
			// writes new_text as the whole file.
			t.Name = event.Write
		}
		t.Added = added(in)
	}
	return t, nil
}

// added is what an editor call puts into its file.
func added(in toolInput) []event.FileLines {
	if in.Path == "" {
		return nil
	}
	if in.OldText != nil {
		return []event.FileLines{host.Replaced(in.Path, *in.OldText, in.NewText)}
	}
	return []event.FileLines{host.Written(in.Path, in.NewText, "")}
}
