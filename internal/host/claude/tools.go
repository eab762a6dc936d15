package claude

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/lazy"
)

var toolNames = lazy.Value[hookjson.Tools]{New: func() hookjson.Tools {
	return hookjson.Tools{
		"Bash":         event.Shell,
		"Read":         event.Read,
		"LS":           event.Read,
		"Write":        event.Write,
		"Edit":         event.Edit,
		"MultiEdit":    event.Edit,
		"NotebookEdit": event.Edit,
		"Grep":         event.Search,
		"Glob":         event.Search,
		"WebFetch":     event.Fetch,
		"WebSearch":    event.Fetch,
		"Task":         event.Delegate,
		"Agent":        event.Delegate,
		"TodoWrite":    event.Todo,
		"TaskCreate":   event.Todo,
		"TaskUpdate":   event.Todo,
	}
}}

// JudgedTools are the Claude Code tools atreides has a normalized name
// for, sorted; install limits PreToolUse to these (and MCP tools) so that a
// tool atreides has no opinion on does not start a process.
func JudgedTools() []string { return toolNames.Get().Judged() }

// toolInput holds the input fields atreides looks at in any tool.
type toolInput struct {
	Command      string `json:"command"`
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Path         string `json:"path"`
	Pattern      string `json:"pattern"`
	Glob         string `json:"glob"`
}

// NormalizeTool maps a Claude Code tool to atreides's names and pulls out
// the command or paths the guard judges.
func NormalizeTool(name string, input json.RawMessage) (event.Tool, error) {
	t := event.Tool{Raw: name, Input: input, Name: event.Other}
	if n, ok := toolNames.Get()[name]; ok {
		t.Name = n
	} else if tool, ok := strings.CutPrefix(name, PluginToolPrefix); ok {
		// atreides's own tools, served by its plugin: the same tools as
		// through .mcp.json, left to governance like them.
		t.Name = event.ToolName("mcp:" + install.MCPServerName + "__" + tool)
	} else if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		t.Name = event.ToolName("mcp:" + rest)
	}
	var in toolInput
	if err := hookjson.ReadToolInput(name, t.Name, input, &in); err != nil {
		return t, err
	}
	switch t.Name {
	case event.Shell:
		t.Command = in.Command
	case event.Read, event.Write, event.Edit:
		t.Paths = hookjson.NonEmpty(in.FilePath, in.NotebookPath, in.Path)
	case event.Search:
		t.Paths = hookjson.NonEmpty(in.Path)
		// Glob's pattern is a path glob; Grep's pattern is a regex over
		// contents, and its file filter is "glob".
		t.Pattern = in.Glob
		if name == "Glob" {
			t.Pattern = in.Pattern
		}
	}
	return t, nil
}

// edits are Claude Code's tools that put text into a file.
var edits = hookjson.EditTools{Write: "Write", Edit: "Edit", MultiEdit: "MultiEdit", Original: "originalFile"}
