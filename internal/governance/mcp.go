package governance

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
)

// An MCP tool is a write when its name says so; reads (read_file,
// search) are never gated. Words, not regexps: this package's init runs
// in every hook process.
var mcpWriteWords = []string{"write", "edit", "create", "delete", "remove", "move", "rename", "mkdir", "patch",
	"apply", "insert", "replace", "append", "save", "upload", "overwrite", "truncate", "chmod"}

// mcpPathKeys are the input keys that name files, compared lower-case
// without underscores.
var mcpPathKeys = map[string]bool{"path": true, "paths": true, "file": true, "files": true, "filepath": true,
	"filename": true, "dir": true, "directory": true, "dest": true, "destination": true, "source": true,
	"src": true, "target": true, "oldpath": true, "newpath": true}

// mcpTargets lists the paths an MCP tool that writes names in its input
// (path, file_path, destination, ...), gated like the file tools. A tool
// that writes files (its name says file, dir or path) but names none is an
// unknown write, since what it changes cannot be checked against the
// scope; one that writes elsewhere (create_issue) is not gated.
func mcpTargets(t event.Tool, cwd string) (paths, unknown []string) {
	name := t.Raw
	if name == "" {
		name = string(t.Name)
	}
	lower := strings.ToLower(name)
	if !slices.ContainsFunc(mcpWriteWords, func(w string) bool { return strings.Contains(lower, w) }) {
		return nil, nil
	}
	var in map[string]any
	_ = json.Unmarshal(t.Input, &in)
	for k, v := range in {
		if !mcpPathKeys[strings.ReplaceAll(strings.ToLower(k), "_", "")] {
			continue
		}
		for _, p := range strs(v) {
			if p == "" || strings.Contains(p, "://") {
				continue
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(cwd, p)
			}
			paths = append(paths, filepath.Clean(p))
		}
	}
	if len(paths) == 0 && (strings.Contains(lower, "file") || strings.Contains(lower, "dir") || strings.Contains(lower, "path")) {
		unknown = []string{"the MCP tool " + name + " writes files it names no path for"}
	}
	return paths, unknown
}

func strs(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
