package guard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestRuleIDsDeclared holds the promise of ruleID: the declared ids are
// exactly the registered ones, and no file but ruleids.go makes a ruleID
// from text (the zero ruleID, "no rule", aside), so every id the code fires is one the compiler checked.
func TestRuleIDsDeclared(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var declared []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "ruleID" || len(lit.Elts) == 0 {
				return true // not a ruleID, or the zero one, which names no rule
			}
			if f != "ruleids.go" {
				t.Errorf("%s makes a ruleID: declare it in ruleids.go", fset.Position(lit.Pos()))
				return true
			}
			if len(lit.Elts) == 1 {
				if s, ok := lit.Elts[0].(*ast.BasicLit); ok && s.Kind == token.STRING {
					v, _ := strconv.Unquote(s.Value)
					declared = append(declared, v)
				}
			}
			return true
		})
	}
	slices.Sort(declared)
	if got := RuleIDs(); !slices.Equal(declared, got) {
		for _, id := range declared {
			if !slices.Contains(got, id) {
				t.Errorf("ruleids.go declares %q, which no rule registers", id)
			}
		}
		for _, id := range got {
			if !slices.Contains(declared, id) {
				t.Errorf("rule %q is registered but not declared in ruleids.go", id)
			}
		}
	}
}
