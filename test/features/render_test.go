package features

import (
	"fmt"
	"strings"
)

// generatedBy heads every generated text: where it comes from and how to
// make it again.
const generatedBy = "<!-- generated from test/features/table_test.go by `go test ./test/features/ -run TestFeatureTable -update`; do not edit -->"

// legend says what the marks mean, in both generated texts.
const legend = "✓ proven end to end: a test drives the pinned CLI of the host against a fake model; " +
	"○ proven by a process test with the host's real payload shapes, the CLI itself not driven for it; " +
	"✗ the host cannot, with the reason and the evidence; " +
	"— the host could, but atreides does not do it there yet; " +
	"? claimed, but no test proves it yet."

// Table is the feature table, complete: a cell for every feature on
// every host.
type Table struct {
	Features []Feature
	Hosts    []string
	cells    map[[2]string]Cell
}

// newTable indexes rows by feature and host.
func newTable(features []Feature, hosts []string, rows []Row) *Table {
	t := &Table{Features: features, Hosts: hosts, cells: map[[2]string]Cell{}}
	for _, r := range rows {
		t.cells[[2]string{r.Feature, r.Host}] = r.Cell
	}
	return t
}

// Cell is the cell of a feature on a host, and whether the table has it.
func (t *Table) Cell(feature, host string) (Cell, bool) {
	c, ok := t.cells[[2]string{feature, host}]
	return c, ok
}

// matrix is the table of marks, one row per feature, each feature's name
// a link to its section of docs/features.md (page: the path to it from
// where the table is shown).
func (t *Table) matrix(b *strings.Builder, page string) {
	b.WriteString("| feature | " + strings.Join(t.Hosts, " | ") + " |\n|---|")
	b.WriteString(strings.Repeat("---|", len(t.Hosts)) + "\n")
	for _, f := range t.Features {
		b.WriteString("| [" + f.Title + "](" + page + "#" + slug(f.Title) + ") |")
		for _, h := range t.Hosts {
			c, _ := t.Cell(f.ID, h)
			b.WriteString(" " + c.Kind.Mark() + " |")
		}
		b.WriteString("\n")
	}
}

// Markdown is docs/features.md: the matrix, then each feature's cells
// with their tests and notes.
func (t *Table) Markdown() string {
	var b strings.Builder
	b.WriteString(generatedBy + "\n\n# Features by host\n\n")
	b.WriteString("What each host gets from atreides, and the tests that prove it. " + legend +
		" The table is Go code in `test/features/table_test.go`, one line per feature and host; a test fails when a test it names is gone, " +
		"when a host of the registry has no cell, or when this page or the README's summary differs from what the table generates. " +
		"To change a cell, edit its line and run `go test ./test/features/ -run TestFeatureTable -update`.\n\n")
	t.matrix(&b, "")
	for _, f := range t.Features {
		fmt.Fprintf(&b, "\n## %s\n\n%s", f.Title, f.What)
		if f.Doc != "" {
			fmt.Fprintf(&b, " More: [%s](%s).", f.Doc, strings.TrimPrefix(f.Doc, "docs/"))
		}
		b.WriteString("\n\n")
		for _, h := range t.Hosts {
			c, _ := t.Cell(f.ID, h)
			b.WriteString("- **" + h + "** " + c.Kind.Mark())
			if c.Note != "" {
				b.WriteString(" " + c.Note)
			}
			if len(c.Tests) > 0 {
				b.WriteString(" (" + testList(c.Tests) + ")")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// Summary is the README's "Hosts" table: the marks alone, with a link to
// the evidence.
func (t *Table) Summary() string {
	var b strings.Builder
	b.WriteString(generatedBy + "\n\n")
	t.matrix(&b, "docs/features.md")
	b.WriteString("\n" + legend + " Each cell's tests, and the reason behind each ✗ and ?, are in " +
		"[docs/features.md](docs/features.md).\n")
	return b.String()
}

// testList names tests as `TestX/sub`, grouped by directory in the
// order they first appear: "`A`, `B` in test/e2e; `C` in internal/x".
func testList(refs []string) string {
	var dirs []string
	names := map[string][]string{}
	for _, r := range refs {
		dir, fn, sub := splitRef(r)
		name := fn
		if sub != "" {
			name += "/" + sub
		}
		if _, ok := names[dir]; !ok {
			dirs = append(dirs, dir)
		}
		names[dir] = append(names[dir], "`"+name+"`")
	}
	parts := make([]string, len(dirs))
	for i, d := range dirs {
		parts[i] = strings.Join(names[d], ", ") + " in " + d
	}
	return strings.Join(parts, "; ")
}

// slug is a heading's anchor as GitHub makes it: lower case, spaces as
// hyphens, other punctuation dropped.
func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}
