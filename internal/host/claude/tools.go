package claude

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

var toolNames = hookjson.Tools{
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

// JudgedTools are the Claude Code tools atreides has a normalized name
// for, sorted; install limits PreToolUse to these (and MCP tools) so that a
// tool atreides has no opinion on does not start a process.
func JudgedTools() []string { return toolNames.Judged() }

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
	if n, ok := toolNames[name]; ok {
		t.Name = n
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

// edited holds the input fields of Write, Edit and MultiEdit that say
// what they put into the file.
type edited struct {
	FilePath  string `json:"file_path"`
	Content   string `json:"content"`
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
	Edits     []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
}

// addedLines is what a successful Write, Edit or MultiEdit added to its
// file. Write's response holds the file's original content when the file
// existed: then only the lines it did not hold count. A payload that does
// not parse adds nothing; the comment checker fails open.
func addedLines(t event.Tool, response json.RawMessage) []event.FileLines {
	var in edited
	if strictjson.Unmarshal(t.Input, &in) != nil || in.FilePath == "" {
		return nil
	}
	switch t.Raw {
	case "Write":
		return []event.FileLines{host.Written(in.FilePath, in.Content, host.OriginalIn(response, "originalFile"))}
	case "Edit":
		return []event.FileLines{host.Replaced(in.FilePath, in.OldString, in.NewString)}
	case "MultiEdit":
		var out []event.FileLines
		for _, e := range in.Edits {
			out = append(out, host.Replaced(in.FilePath, e.OldString, e.NewString))
		}
		return out
	}
	return nil
}
