package guard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxMethods bounds the methods of one receiver type in the package, so
// that the analysis stays split by concern (judges.go) instead of growing
// back into one type that walks and judges everything.
const maxMethods = 60

func TestReceiverMethodCounts(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			typ := fd.Recv.List[0].Type
			if st, ok := typ.(*ast.StarExpr); ok {
				typ = st.X
			}
			if ix, ok := typ.(*ast.IndexListExpr); ok {
				typ = ix.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				count[id.Name]++
			}
		}
	}
	if count["analyzer"] == 0 {
		t.Fatal("no methods of analyzer found: the test reads the wrong files")
	}
	for typ, n := range count {
		if n > maxMethods {
			t.Errorf("%s has %d methods, more than %d: give a concern its own type (judges.go)", typ, n, maxMethods)
		}
	}
}
