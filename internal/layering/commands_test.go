package layering

import (
	"go/ast"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneCommandAFile: a file of the command line defines one command
// (todo_add.go for 'atreides todo add'), so that a command is found by
// its name; a group's file (todo.go) holds the group and what its
// commands share.
func TestOneCommandAFile(t *testing.T) {
	for _, s := range sources(t) {
		dir, _ := filepath.Split(s.rel)
		if !commandLine.has(strings.TrimSuffix(dir, "/")) {
			continue
		}
		if cmds := commandsOf(s.file); len(cmds) > 1 {
			t.Errorf("%s defines %d commands (%s): one a file", s.rel, len(cmds), strings.Join(cmds, ", "))
		}
	}
}

// commandsOf names the command constructors (newXxxCmd, NewXxxCmd) f
// declares.
func commandsOf(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
			n := fn.Name.Name
			if (strings.HasPrefix(n, "new") || strings.HasPrefix(n, "New")) && strings.HasSuffix(n, "Cmd") {
				out = append(out, n)
			}
		}
	}
	return out
}

// commandHelpers are the files of the command line that define no
// command: the shared package, and the root's running of a command line.
var commandHelpers = set{"internal/cli/command/...", "internal/cli/main.go"}

var commandLine = set{"internal/cli/..."}

// TestEveryFileACommand: a file of the command line defines a command (a
// newXxxCmd or NewXxxCmd constructor), so a command's code is found by its
// name; what commands share lives in commandHelpers.
func TestEveryFileACommand(t *testing.T) {
	for _, s := range sources(t) {
		dir, name := filepath.Split(s.rel)
		pkg := strings.TrimSuffix(dir, "/")
		if !commandLine.has(pkg) || name == "doc.go" || commandHelpers.has(s.rel) || commandHelpers.has(pkg) {
			continue
		}
		if len(commandsOf(s.file)) == 0 {
			t.Errorf("%s defines no command: a command's helpers go in its file, shared ones in internal/cli/command", s.rel)
		}
	}
}
