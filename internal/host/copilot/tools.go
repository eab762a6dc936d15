package copilot

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// toolName maps Copilot CLI 1.0.102's built-in tools (names from the tool
// declarations it sends the model, and from its runtime's own tool
// classes: bash/powershell/local_shell, write_bash/write_powershell,
// view, create, edit/str_replace, str_replace_editor, apply_patch,
// grep/rg, glob) to atreides's names; Other for the rest (read_bash,
// stop_bash, list_bash, sql, skill, read_agent, write_agent, list_agents,
// session_store_sql, ...). Its todo list is a table the model writes
// with the sql tool, which atreides cannot mirror. str_replace_editor is
// told apart by its command (normalizeEditor).
func toolName(name string) event.ToolName {
	switch name {
	case "bash", "powershell", "local_shell":
		return event.Shell
	case "write_bash", "write_powershell":
		// Text typed into a running shell (shellId): a command like any
		// other once it ends in {enter}.
		return event.Shell
	case "view":
		return event.Read
	case "create":
		return event.Write
	case "edit", "str_replace", "str_replace_editor", "apply_patch":
		return event.Edit
	case "grep", "rg", "glob":
		return event.Search
	case "web_fetch":
		return event.Fetch
	case "task":
		return event.Delegate
	}
	return event.Other
}

// JudgedTools are the tools install limits preToolUse to (with MCP tools).
func JudgedTools() []string {
	return []string{"apply_patch", "bash", "create", "edit", "glob", "grep", "local_shell", "powershell", "rg", "str_replace", "str_replace_editor", "task", "view", "web_fetch", "write_bash", "write_powershell"}
}

// toolInput holds the input fields atreides looks at in any tool.
type toolInput struct {
	Command string `json:"command"` // bash; str_replace_editor's sub-command
	Input   string `json:"input"`   // write_bash; apply_patch's patch
	Patch   string `json:"patch"`   // apply_patch's patch (another key)
	Path    string `json:"path"`    // view, create, edit, str_replace_editor
	Pattern string `json:"pattern"` // glob's path glob; grep's regex over contents
	Glob    string `json:"glob"`    // grep's file filter
	// Paths is grep's and glob's: one directory or a list of them.
	Paths json.RawMessage `json:"paths"`
}

// NormalizeTool maps a Copilot CLI tool to atreides's names and pulls out
// the command or paths the guard judges.
func NormalizeTool(name string, args json.RawMessage) (event.Tool, error) {
	t := event.Tool{Raw: name, Input: args, Name: toolName(name)}
	if len(args) == 0 || string(args) == "null" {
		return t, nil
	}
	if name == "apply_patch" && args[0] == '"' {
		// Copilot takes the patch as the whole argument too.
		var patch string
		if err := json.Unmarshal(args, &patch); err != nil {
			return t, fmt.Errorf("toolArgs of %s: %w", name, err)
		}
		t.Paths = host.PatchPaths(patch)
		return t, nil
	}
	if args[0] != '{' {
		return t, fmt.Errorf("toolArgs of %s is not an object", name)
	}
	var in toolInput
	if err := host.DecodeToolInput(args, t.Name, &in); err != nil {
		return t, fmt.Errorf("toolArgs of %s: %w", name, err)
	}
	switch {
	case name == "write_bash" || name == "write_powershell":
		t.Command = typed(in.Input)
	case name == "apply_patch":
		t.Paths = host.PatchPaths(cmp.Or(in.Input, in.Patch))
	case name == "str_replace_editor":
		t.Name = editorTool(in.Command)
		if in.Path != "" {
			t.Paths = []string{in.Path}
		}
	case t.Name == event.Shell:
		t.Command = in.Command
	case t.Name == event.Read || t.Name == event.Write || t.Name == event.Edit:
		if in.Path != "" {
			t.Paths = []string{in.Path}
		}
	case t.Name == event.Search:
		dirs, err := searchPaths(in.Paths)
		if err != nil {
			return t, fmt.Errorf("toolArgs of %s: paths: %w", name, err)
		}
		t.Paths, t.Pattern = dirs, in.Glob
		if name == "glob" {
			t.Pattern = in.Pattern
		}
	}
	return t, nil
}

// editorTool is what str_replace_editor's sub-command does: view reads;
// create writes; str_replace, insert, undo_edit and anything else edit
// (a write is judged at least as strictly as a read).
func editorTool(command string) event.ToolName {
	switch command {
	case "view":
		return event.Read
	case "create":
		return event.Write
	}
	return event.Edit
}

// typed is the text write_bash types into a shell as the shell reads it:
// {enter} ends a line. The other keys ({up}, {down}, {left}, {right},
// {backspace}) are left in, so that the guard sees a line it cannot take
// for a plain one.
func typed(input string) string {
	return strings.ReplaceAll(input, "{enter}", "\n")
}

// searchPaths reads grep's and glob's paths: a string or a list of them.
func searchPaths(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if one == "" {
			return nil, nil
		}
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, err
	}
	return many, nil
}

// edited holds what create and edit put into a file.
type edited struct {
	Path     string `json:"path"`
	FileText string `json:"file_text"`
	OldStr   string `json:"old_str"`
	NewStr   string `json:"new_str"`
}

// added is what a successful create or edit put into its file (create
// refuses an existing file, so all of its lines are new).
func added(t event.Tool) []event.FileLines {
	var in edited
	if strictjson.Unmarshal(t.Input, &in) != nil || in.Path == "" {
		return nil
	}
	switch t.Raw {
	case "create":
		return []event.FileLines{host.Written(in.Path, in.FileText, "")}
	case "edit":
		return []event.FileLines{host.Replaced(in.Path, in.OldStr, in.NewStr)}
	}
	return nil
}
