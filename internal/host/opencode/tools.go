package opencode

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
	"github.com/atreides-dev/atreides/internal/lazy"
)

// toolNames maps the built-in tools of OpenCode (1.18.33) and of its
// forks to atreides's names.
var toolNames = lazy.Value[map[string]event.ToolName]{New: func() map[string]event.ToolName {
	return map[string]event.ToolName{
		"bash":      event.Shell,
		"read":      event.Read,
		"list":      event.Read,
		"write":     event.Write,
		"edit":      event.Edit,
		"multiedit": event.Edit,
		"patch":     event.Edit,
		// OpenCode 1.18's and Kilo 7.7.7's patch tool, offered to GPT models
		// in place of edit and write ({patchText}): it adds, updates, moves
		// and deletes the files its envelope names.
		"apply_patch": event.Edit,
		"glob":        event.Search,
		"grep":        event.Search,
		"webfetch":    event.Fetch,
		"websearch":   event.Fetch,
		"task":        event.Delegate,
		"todowrite":   event.Todo,
		"todoread":    event.Todo,
		// Kilo Code's (7.7.7): a command it starts and keeps running
		// ({action:"start", command, workdir}); judged as a shell command.
		"background_process": event.Shell,
	}
}}

// toolInput holds the argument fields atreides looks at in any tool.
type toolInput struct {
	Command  string `json:"command"`
	Workdir  string `json:"workdir"`
	FilePath string `json:"filePath"`
	Path     string `json:"path"`
	Pattern  string `json:"pattern"`
	Include  string `json:"include"`
	// PatchText is the patch tools' envelope, which names their files.
	PatchText string `json:"patchText"`
}

// NormalizeTool maps an OpenCode tool call to atreides's names and pulls
// out the command or paths the guard judges. MCP tools arrive as
// "<server>_<tool>"; they cannot be told from plugin tools by name, so
// they stay "other" with the raw name kept. atreides's own tools, which the
// plugin registers as "atreides_<tool>" (Facts.ToolPrefix), become
// "mcp:atreides__<tool>", the name they have on every other host, so that
// governance knows them.
func NormalizeTool(name string, args json.RawMessage) (event.Tool, string, error) {
	t := event.Tool{Raw: name, Input: args, Name: event.Other}
	if n, ok := toolNames.Get()[name]; ok {
		t.Name = n
	} else if tool, ok := strings.CutPrefix(name, "atreides_"); ok && tool != "" {
		t.Name = event.ToolName("mcp:atreides__" + tool)
	}
	var in toolInput
	if len(args) > 0 && args[0] == '{' {
		if err := host.DecodeToolInput(args, t.Name, &in); err != nil {
			return t, "", fmt.Errorf("args of %s: %w", name, err)
		}
	} else if len(args) > 0 && string(args) != "null" {
		return t, "", fmt.Errorf("args of %s are not an object", name)
	}
	workdir := ""
	switch t.Name {
	case event.Shell:
		t.Command = in.Command
		// A relative workdir is the directory's below OpenCode's (Kilo
		// 7.7.7 resolves bash's and background_process's from it): the
		// caller joins it to the event's directory.
		if strings.TrimSpace(in.Workdir) != "" {
			workdir = filepath.Clean(in.Workdir)
		}
	case event.Read, event.Write, event.Edit:
		t.Paths = nonEmpty(in.FilePath, in.Path)
		if name == "patch" || name == "apply_patch" {
			t.Paths = append(t.Paths, host.PatchPaths(in.PatchText)...)
		}
	case event.Search:
		t.Paths = nonEmpty(in.Path)
		// glob's pattern is a path glob; grep's is a regex over contents
		// and its file filter is "include".
		t.Pattern = in.Include
		if name == "glob" {
			t.Pattern = in.Pattern
		}
	}
	return t, workdir, nil
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// edited holds the argument fields of write, edit, multiedit and the patch
// tools that say what they put into files.
type edited struct {
	FilePath  string `json:"filePath"`
	Content   string `json:"content"`
	OldString string `json:"oldString"`
	NewString string `json:"newString"`
	Edits     []struct {
		FilePath  string `json:"filePath"`
		OldString string `json:"oldString"`
		NewString string `json:"newString"`
	} `json:"edits"`
	PatchText string `json:"patchText"`
}

// addedLines is what a write, edit, multiedit or patch added. OpenCode's
// write arguments do not say what the file held before, so every line of
// a write counts. Arguments that do not parse add nothing; the comment
// checker fails open.
func addedLines(t event.Tool) []event.FileLines {
	var in edited
	if strictjson.Unmarshal(t.Input, &in) != nil {
		return nil
	}
	switch t.Raw {
	case "write":
		if in.FilePath != "" {
			return []event.FileLines{host.Written(in.FilePath, in.Content, "")}
		}
	case "edit":
		if in.FilePath != "" {
			return []event.FileLines{host.Replaced(in.FilePath, in.OldString, in.NewString)}
		}
	case "multiedit":
		var out []event.FileLines
		for _, e := range in.Edits {
			path := cmp.Or(e.FilePath, in.FilePath)
			if path != "" {
				out = append(out, host.Replaced(path, e.OldString, e.NewString))
			}
		}
		return out
	case "patch", "apply_patch":
		return host.PatchAdded(in.PatchText)
	}
	return nil
}
