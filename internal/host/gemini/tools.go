package gemini

import (
	"encoding/json"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
	"github.com/atreides-dev/atreides/internal/lazy"
)

// toolNames maps Gemini CLI 0.61.0's built-in tools (names taken from the
// function declarations it sends the model) to atreides's names. Older
// names from Gemini's docs are kept so that an older CLI is still judged.
var toolNames = lazy.Value[hookjson.Tools]{New: func() hookjson.Tools {
	return hookjson.Tools{
		"run_shell_command":   event.Shell,
		"read_file":           event.Read,
		"read_many_files":     event.Read,
		"write_file":          event.Write,
		"replace":             event.Edit,
		"glob":                event.Search,
		"grep_search":         event.Search,
		"search_file_content": event.Search, // older name of grep_search
		"list_directory":      event.Search,
		"web_fetch":           event.Fetch,
		"google_web_search":   event.Fetch,
		"invoke_agent":        event.Delegate,
		"delegate_to_agent":   event.Delegate, // older name of invoke_agent
		"write_todos":         event.Todo,
	}
}}

// JudgedTools are the Gemini CLI tools atreides has a normalized name for,
// sorted; install limits BeforeTool to these (and MCP tools).
func JudgedTools() []string { return toolNames.Get().Judged() }

// ToolInput holds the input fields atreides looks at in any tool, of
// Gemini CLI and of its fork Qwen Code.
type ToolInput struct {
	Command  string `json:"command"`
	FilePath string `json:"file_path"`
	DirPath  string `json:"dir_path"`
	Path     string `json:"path"`
	Pattern  string `json:"pattern"`
	// read_many_files takes glob patterns rather than one path.
	Include []string `json:"include"`
}

// NormalizeTool maps a Gemini CLI tool to atreides's names and pulls out the
// command or paths the guard judges. An MCP tool (mcp_context set) becomes
// "mcp:<server>__<tool>", the same shape Claude Code's mcp__ tools take.
func NormalizeTool(name string, input json.RawMessage, mcp *hookjson.MCPContext) (event.Tool, error) {
	t := event.Tool{Raw: name, Input: input, Name: event.Other}
	if n, ok := toolNames.Get()[name]; ok {
		t.Name = n
	} else if mcp != nil && mcp.ServerName != "" {
		tool := mcp.ToolName
		if tool == "" {
			tool = name
		}
		t.Name = event.ToolName("mcp:" + mcp.ServerName + "__" + tool)
	}
	return t, ReadInput(&t)
}

// ReadInput fills t's command or paths from its input (t.Raw names the
// tool, t.Name is atreides's name for it). Gemini CLI's forks (Qwen Code)
// keep its tools' input fields under names of their own, so they share
// this reading and keep only their name table.
func ReadInput(t *event.Tool) error {
	var in ToolInput
	if err := hookjson.ReadToolInput(t.Raw, t.Name, t.Input, &in); err != nil {
		return err
	}
	switch t.Name {
	case event.Shell:
		t.Command = in.Command
	case event.Read, event.Write, event.Edit:
		t.Paths = hookjson.NonEmpty(in.FilePath, in.Path)
		t.Paths = append(t.Paths, hookjson.NonEmpty(in.Include...)...)
	case event.Search:
		t.Paths = hookjson.NonEmpty(in.DirPath, in.Path)
		if t.Raw == "glob" && in.Pattern != "" {
			t.Paths = append(t.Paths, in.Pattern)
		}
	}
	return nil
}

// edits are Gemini CLI's tools that put text into a file; write_file's
// returnDisplay holds the file's originalContent when the file existed.
var edits = hookjson.EditTools{Write: "write_file", Edit: "replace", Original: "originalContent"}

// shellDir is the dir_path a shell call runs its command in, "" when it
// names none.
func shellDir(t event.Tool) (string, error) {
	if t.Name != event.Shell || len(t.Input) == 0 || t.Input[0] != '{' {
		return "", nil
	}
	var in struct {
		DirPath string `json:"dir_path"`
	}
	err := strictjson.UnmarshalInput(t.Input, &in)
	return in.DirPath, err
}
