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
