package qwen

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/lazy"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// toolNames maps Qwen Code 0.24.4's built-in tools (its ToolNames, and the
// declarations the fake model receives) to atreides's names. Qwen Code is
// a fork of Gemini CLI: the tools that stayed keep Gemini's names and
// input fields (their inputs are read by gemini.ReadInput), but several
// were renamed (edit, agent, todo_write, web_search), so the table is its
// own. Built on first use rather than at init.
var toolNames = lazy.Value[hookjson.Tools]{New: func() hookjson.Tools {
	return hookjson.Tools{
		"run_shell_command": event.Shell,
		// {command, directory, ...}: a command it runs in the background
		// and streams the lines of (registered with the shell sandbox on).
		"monitor":        event.Shell,
		"read_file":      event.Read,
		"write_file":     event.Write,
		"edit":           event.Edit,
		"glob":           event.Search,
		"grep_search":    event.Search,
		"list_directory": event.Search,
		"web_fetch":      event.Fetch,
		"web_search":     event.Fetch,
		"agent":          event.Delegate,
		// Off by default in 0.24.4 (tools.todoWrite.enabled); mirrored when a
		// user turns it on.
		"todo_write": event.Todo,
	}
}}

// JudgedTools are the Qwen Code tools atreides has a normalized name for,
// sorted; install limits PreToolUse to these (and MCP tools).
func JudgedTools() []string { return toolNames.Get().Judged() }

// NormalizeTool maps a Qwen Code tool to atreides's names and pulls out the
// command or paths the guard judges. Unlike Gemini CLI, Qwen names an MCP
// tool as Claude Code does, mcp__<server>__<tool>, which becomes
// "mcp:<server>__<tool>".
func NormalizeTool(name string, input json.RawMessage) (event.Tool, error) {
	t := event.Tool{Raw: name, Input: input, Name: event.Other}
	if n, ok := toolNames.Get()[name]; ok {
		t.Name = n
	} else if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		t.Name = event.ToolName("mcp:" + rest)
	}
	return t, gemini.ReadInput(&t)
}

// shellDir is the directory a shell tool's command runs in: its
// "directory" argument, which Qwen requires to be absolute (and inside
// the workspace); "" when there is none.
func shellDir(t event.Tool) (string, error) {
	if t.Name != event.Shell || len(t.Input) == 0 || t.Input[0] != '{' {
		return "", nil
	}
	var in struct {
		Directory string `json:"directory"`
	}
	if err := strictjson.UnmarshalInput(t.Input, &in); err != nil {
		return "", err
	}
	return in.Directory, nil
}

// edits are Qwen Code's tools that put text into a file; the
// returnDisplay of write_file and edit holds the file's originalContent.
var edits = hookjson.EditTools{Write: "write_file", Edit: "edit", Original: "originalContent"}
