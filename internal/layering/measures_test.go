package layering

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Ceilings on what the architecture is measured by. (Host names written
// outside internal/host are held by internal/host/all's TestHostLiterals,
// which lists each exception with its reason.) A figure over its
// ceiling fails; one under it says so, so the ceiling is lowered as the
// house improves and never rises again unnoticed.
var ceilings = map[string]int{
	// 10 since 'atreides version' prints the build (internal/buildinfo,
	// a leaf), not only the version the hook runtime knows.
	// 11 since the review commands are a group of their own (cli/reviews):
	// cli/work was at its own ceiling.
	"internal packages internal/cli imports": 11,
	// cli/work's todo, anchor and task commands import the packages that
	// own those groups (todos, anchors, taskboard), which state held.
	"internal packages a command group imports":   12,
	"Default*Options functions":                   0,
	"rule ids written as strings (fire(\"...\"))": 0,
	// The analyzer's concerns are types over it, each with one accessor
	// on it; the effect model (issue 32) added the 45th, effects().
	"methods of the largest receiver type":             45,
	"guard functions of cyclomatic complexity over 30": 1,
	"guard mean cyclomatic complexity, in hundredths":  603,
}

// source is one parsed non-test file of the module.
type source struct {
	rel  string // relative to the module root
	file *ast.File
	fset *token.FileSet
}

func sources(t *testing.T) []source {
	t.Helper()
	pkgs := packages(t)
	var out []source
	for _, p := range pkgs {
		entries, err := os.ReadDir(p.Dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, source{rel: p.Path + "/" + name, file: f, fset: fset})
		}
	}
	slices.SortFunc(out, func(a, b source) int { return strings.Compare(a.rel, b.rel) })
	return out
}

func (s source) pos(n ast.Node) string {
	return fmt.Sprintf("%s:%d", s.rel, s.fset.Position(n.Pos()).Line)
}

func TestMeasures(t *testing.T) {
	pkgs := packages(t)
	srcs := sources(t)
	got := map[string]int{}
	offenders := map[string][]string{}

	got["internal packages internal/cli imports"] = len(pkgs["internal/cli"].Imports)
	group, width := largestCommandGroup(pkgs)
	got["internal packages a command group imports"] = width
	offenders["internal packages a command group imports"] = []string{group}
	for what, where := range map[string][]string{
		"Default*Options functions":                   defaultOptions(srcs),
		"rule ids written as strings (fire(\"...\"))": stringRuleIDs(srcs),
	} {
		got[what], offenders[what] = len(where), where
	}
	name, n := largestReceiver(srcs)
	got["methods of the largest receiver type"] = n
	offenders["methods of the largest receiver type"] = []string{name}
	over, mean := complexity(srcs, set{"internal/guard/...", "internal/shell/..."})
	got["guard functions of cyclomatic complexity over 30"] = len(over)
	offenders["guard functions of cyclomatic complexity over 30"] = over
	got["guard mean cyclomatic complexity, in hundredths"] = mean

	for what, limit := range ceilings {
		n, ok := got[what]
		if !ok {
			t.Errorf("nothing measures %q", what)
			continue
		}
		switch {
		case n > limit:
			t.Errorf("%s: %d, over the ceiling of %d: %s", what, n, limit, strings.Join(offenders[what], ", "))
		case n < limit:
			t.Logf("%s: %d, under the ceiling of %d: lower it in %s", what, n, limit, "internal/layering/measures_test.go")
		}
	}
}

// defaultOptions are where the Default*Options functions are declared.
func defaultOptions(srcs []source) []string {
	var where []string
	for _, s := range srcs {
		for _, d := range s.file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil &&
				strings.HasPrefix(fn.Name.Name, "Default") && strings.HasSuffix(fn.Name.Name, "Options") {
				where = append(where, s.pos(fn))
			}
		}
	}
	return where
}

// stringRuleIDs are the calls fire("...") whose rule is a string literal.
func stringRuleIDs(srcs []source) []string {
	var where []string
	for _, s := range srcs {
		ast.Inspect(s.file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "fire" {
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				where = append(where, s.pos(call))
			}
			return true
		})
	}
	return where
}

// largestCommandGroup is the package under internal/cli/ that imports
// the most of the module's packages, and how many: a group that needs
// many is doing a feature's work, or holds commands of two areas.
func largestCommandGroup(pkgs map[string]pkg) (string, int) {
	best, n := "", 0
	for path, p := range pkgs {
		if !strings.HasPrefix(path, "internal/cli/") {
			continue
		}
		if k := len(p.Imports); k > n || k == n && path < best {
			best, n = path, k
		}
	}
	return best, n
}

// largestReceiver is the type with the most methods, and how many.
func largestReceiver(srcs []source) (string, int) {
	count := map[string]int{}
	for _, s := range srcs {
		dir := filepath.Dir(s.rel)
		for _, d := range s.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 {
				continue
			}
			count[dir+"."+receiverName(fn.Recv.List[0].Type)]++
		}
	}
	best, n := "", 0
	for k, v := range count {
		if v > n || v == n && k < best {
			best, n = k, v
		}
	}
	return best, n
}

func receiverName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiverName(t.X)
	case *ast.IndexExpr:
		return receiverName(t.X)
	case *ast.IndexListExpr:
		return receiverName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// complexity is the cyclomatic complexity of the functions of the
// packages in scope, counted as gocyclo counts it (one, plus one for each
// if, for, range, non-default case and select case, && and ||; a
// function literal counts toward the function it is written in): those
// over 30, and the mean in hundredths.
func complexity(srcs []source, scope set) (over []string, meanHundredths int) {
	total, funcs := 0, 0
	for _, s := range srcs {
		if !scope.has(filepath.Dir(s.rel)) {
			continue
		}
		for _, d := range s.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			c := cyclomatic(fn)
			total += c
			funcs++
			if c > 30 {
				over = append(over, fmt.Sprintf("%s (%d)", s.pos(fn), c))
			}
		}
	}
	if funcs == 0 {
		return over, 0
	}
	return over, total * 100 / funcs
}

func cyclomatic(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// TestCyclomatic: the counter gives gocyclo's figure on known shapes.
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
		if got := cyclomatic(file.Decls[0].(*ast.FuncDecl)); got != want {
			t.Errorf("%s: %d, want %d", src, got, want)
		}
	}
}
