package features

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/host/all"
)

var update = flag.Bool("update", false, "rewrite docs/features.md and the README's Hosts table from the table")

// root is the module root, from this package's directory.
const root = "../.."

// Summary markers: the README's generated "Hosts" table sits between them.
const (
	beginMark = "<!-- features:begin -->\n"
	endMark   = "<!-- features:end -->\n"
)

// hostNames are the registry's hosts, in its order.
func hostNames() []string {
	var out []string
	for _, h := range all.All() {
		out = append(out, h.Name)
	}
	return out
}

// TestFeatureTable: the table is complete (one cell per feature and
// host, no stray row), every cell says how it is proven, every test it
// names exists, and docs/features.md and the README's Hosts table are
// what it generates (-update rewrites them).
func TestFeatureTable(t *testing.T) {
	hosts := hostNames()
	checkShape(t, features, hosts, rows)
	tab := newTable(features, hosts, rows)
	checkTestsExist(t, rows)
	checkFile(t, filepath.Join(root, "docs", "features.md"), tab.Markdown(), "", "")
	checkFile(t, filepath.Join(root, "README.md"), tab.Summary(), beginMark, endMark)
}

// checkShape: each feature × host has exactly one row, each row a known
// feature and host, and each cell what its kind needs.
func checkShape(t *testing.T, fs []Feature, hosts []string, rs []Row) {
	t.Helper()
	known := map[string]bool{}
	for _, f := range fs {
		if known[f.ID] || f.Title == "" || f.What == "" {
			t.Errorf("feature %q: duplicate, or no title or description", f.ID)
		}
		known[f.ID] = true
	}
	isHost := map[string]bool{}
	for _, h := range hosts {
		isHost[h] = true
	}
	seen := map[[2]string]bool{}
	for _, r := range rs {
		k := [2]string{r.Feature, r.Host}
		switch {
		case !known[r.Feature]:
			t.Errorf("row %v: no such feature", k)
		case !isHost[r.Host]:
			t.Errorf("row %v: no such host in internal/host/all", k)
		case seen[k]:
			t.Errorf("row %v: twice", k)
		}
		seen[k] = true
		checkCell(t, k, r.Cell)
	}
	for _, f := range fs {
		for _, h := range hosts {
			if !seen[[2]string{f.ID, h}] {
				t.Errorf("no cell for %s on %s: prove it, or say why the host cannot (cannot) or that nothing proves it (unproven)", f.ID, h)
			}
		}
	}
}

// checkCell: a proven cell names tests; a cell the host cannot do or
// that nothing proves says why.
func checkCell(t *testing.T, k [2]string, c Cell) {
	t.Helper()
	switch {
	case (c.Kind == EndToEnd || c.Kind == Process) && len(c.Tests) == 0:
		t.Errorf("%v: %s names no test", k, c.Kind.Mark())
	case c.Kind >= Cannot && c.Note == "":
		t.Errorf("%v: %s gives no reason", k, c.Kind.Mark())
	case c.Kind >= Missing && len(c.Tests) > 0:
		t.Errorf("%v: %s, yet names tests that would prove it", k, c.Kind.Mark())
	case c.Kind == EndToEnd && slicesAny(c.Tests, func(s string) bool { d, _, _ := splitRef(s); return d != e2eDir }):
		t.Errorf("%v: an end-to-end cell names a test outside %s: %v", k, e2eDir, c.Tests)
	}
}

func slicesAny(s []string, f func(string) bool) bool {
	for _, v := range s {
		if f(v) {
			return true
		}
	}
	return false
}

// checkTestsExist: every test a cell names is a Test function of its
// directory's test files, and a subtest's name is a string literal there.
func checkTestsExist(t *testing.T, rs []Row) {
	t.Helper()
	pkgs := map[string]*testNames{}
	isHost := map[string]bool{}
	for _, h := range hostNames() {
		isHost[h] = true // a subtest per host (TestConformance/gemini) is named from the registry
	}
	for _, r := range rs {
		for _, ref := range r.Tests {
			dir, fn, sub := splitRef(ref)
			if dir == "" {
				t.Errorf("%s on %s: %q is not dir.TestName", r.Feature, r.Host, ref)
				continue
			}
			p, ok := pkgs[dir]
			if !ok {
				var err error
				if p, err = readTestNames(filepath.Join(root, dir)); err != nil {
					t.Fatalf("%s: %v", dir, err)
				}
				pkgs[dir] = p
			}
			if !p.funcs[fn] {
				t.Errorf("%s on %s: %s has no test %s", r.Feature, r.Host, dir, fn)
			}
			for part := range strings.SplitSeq(sub, "/") {
				if sub != "" && !p.literals[part] && !isHost[part] {
					t.Errorf("%s on %s: %s has no subtest named %q", r.Feature, r.Host, dir, part)
				}
			}
		}
	}
}

// testNames are a directory's Test functions and string literals (as
// subtest names: spaces become underscores, as go test writes them).
type testNames struct {
	funcs, literals map[string]bool
}

func readTestNames(dir string) (*testNames, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		return nil, os.ErrNotExist
	}
	n := &testNames{funcs: map[string]bool{}, literals: map[string]bool{}}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") {
				n.funcs[fd.Name.Name] = true
			}
		}
		ast.Inspect(file, func(node ast.Node) bool {
			if lit, ok := node.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					n.literals[strings.ReplaceAll(s, " ", "_")] = true
				}
			}
			return true
		})
	}
	return n, nil
}

// checkFile: the file (or its part between begin and end) is want; with
// -update it is rewritten to be.
func checkFile(t *testing.T, path, want, begin, end string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !(*update && begin == "") {
		t.Fatal(err)
	}
	got, pre, post := string(data), "", ""
	if begin != "" {
		var ok, ok2 bool
		pre, got, ok = strings.Cut(string(data), begin)
		got, post, ok2 = strings.Cut(got, end)
		if !ok || !ok2 {
			t.Fatalf("%s: no %q ... %q around the generated table", path, begin, end)
		}
		pre += begin
		post = end + post
	}
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(pre+want+post), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s", path)
		return
	}
	t.Errorf("%s is not what test/features/table_test.go generates: run `go test ./test/features/ -run TestFeatureTable -update` and commit the result", path)
}
