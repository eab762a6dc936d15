// Package hostlit finds host names written as string literals outside
// internal/host: a switch on a host's name belongs in the host's facts
// (event.HostFacts) or its registry entry (internal/host/all). It is test
// support, for internal/host/all's TestHostLiterals, and is linked into no
// binary.
package hostlit

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Literal is one string literal that is a host's name.
type Literal struct {
	File string // slash-separated, relative to the module root
	Line int
	Name string
}

func (l Literal) String() string { return fmt.Sprintf("%s:%d: %q", l.File, l.Line, l.Name) }

// Find lists the string literals equal to one of names in the non-test Go
// files under root's internal/ and cmd/, outside internal/host/. Comments
// and struct tags are not literals of a name; a file whose slash path
// relative to root is in skip (or under a skipped directory, ending in
// "/") is not read.
func Find(root string, names, skip []string) ([]Literal, error) {
	var out []Literal
	fset := token.NewFileSet()
	for _, top := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel == "internal/host" || slices.Contains(skip, rel+"/") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || slices.Contains(skip, rel) {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return fmt.Errorf("hostlit: %w", err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Field:
					// Its tag is no literal of the program's: only its
					// type is walked.
					ast.Inspect(n.Type, func(m ast.Node) bool { return visit(fset, rel, names, m, &out) })
					return false
				default:
					return visit(fset, rel, names, n, &out)
				}
			})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// visit records n when it is a string literal of one of names.
func visit(fset *token.FileSet, file string, names []string, n ast.Node, out *[]Literal) bool {
	lit, ok := n.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return true
	}
	if s, err := strconv.Unquote(lit.Value); err == nil && slices.Contains(names, s) {
		*out = append(*out, Literal{File: file, Line: fset.Position(lit.Pos()).Line, Name: s})
	}
	return true
}
