package guard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"iter"
	"path/filepath"
	"strings"
	"testing"
)

// The shell model and the guard stay made of short functions: their mean
// cyclomatic complexity (as gocyclo counts it: one, plus each if, for,
// non-default case, && and ||, closures counted in their function) is at
// most maxMeanComplexity, and at most maxComplex functions are over
// complexLimit. These were the targets of splitting the analyzer; a
// change that brings back a long function fails here.
const (
	maxMeanComplexity = 6.5
	complexLimit      = 30
	maxComplex        = 10
)

func TestComplexity(t *testing.T) {
	var n, sum int
	var over []string
	for _, dir := range []string{".", "../shell"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for name, body := range functions(file) {
				c := cyclomatic(body)
				n++
				sum += c
				if c > complexLimit {
					over = append(over, name)
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d functions found: the test reads the wrong directories", n)
	}
	mean := float64(sum) / float64(n)
	t.Logf("%d functions, mean complexity %.3f, %d over %d", n, mean, len(over), complexLimit)
	if mean > maxMeanComplexity {
		t.Errorf("mean cyclomatic complexity of guard and shell is %.2f, over %.1f", mean, maxMeanComplexity)
	}
	if len(over) > maxComplex {
		t.Errorf("%d functions have a complexity over %d, more than %d: %s", len(over), complexLimit, maxComplex, strings.Join(over, ", "))
	}
}

// functions yields the bodies gocyclo measures in a file: its function
// declarations and the function literals package variables are set to.
func functions(file *ast.File) iter.Seq2[string, ast.Node] {
	return func(yield func(string, ast.Node) bool) {
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil && !yield(d.Name.Name, d.Body) {
					return
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for i, v := range vs.Values {
						if fl, ok := v.(*ast.FuncLit); ok && i < len(vs.Names) && !yield(vs.Names[i].Name, fl.Body) {
							return
						}
					}
				}
			}
		}
	}
}

// cyclomatic is gocyclo's count for one function body.
func cyclomatic(body ast.Node) int {
	c := 1
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if x.List != nil {
				c++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// The count is gocyclo's on shapes whose figure is known.
func TestCyclomatic(t *testing.T) {
	for src, want := range map[string]int{
		"func f() {}": 1,
		"func f(a, b bool) { if a && b || a {} }":                                         4,
		"func f(x int) { switch x { case 1: case 2, 3: default: } }":                      3,
		"func f(s []int) { for range s { go func() { if true {} }() } }":                  3,
		"func f(c chan int) { select { case <-c: default: }; for i := 0; i < 1; i++ {} }": 3,
	} {
		file, err := parser.ParseFile(token.NewFileSet(), "x.go", "package x\n"+src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := cyclomatic(file.Decls[0].(*ast.FuncDecl).Body); got != want {
			t.Errorf("%s: %d, want %d", src, got, want)
		}
	}
}
