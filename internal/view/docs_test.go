package view

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the documents generated from the views (docs/json.md's tables, docs/export.schema.json)")

// The documents generated from the view types: the types are the contract,
// and these say what the types say.
const (
	jsonDoc    = "../../docs/json.md"
	schemaFile = "../../docs/export.schema.json"
)

// jsonTables are the views docs/json.md has a field table for, in the
// order of its sections.
var jsonTables = []any{Todo{}, ProjectAnchor{}, Task{}, Claim{}, HeldIntent{}, ScopeRequest{}, Status{}, Unreadable{}, StatusSession{}, StatusDelegation{}, BgTask{}}

// TestDocs fails when docs/json.md's field tables or
// docs/export.schema.json differ from what the view types say;
// go test ./internal/view -run TestDocs -update writes them.
func TestDocs(t *testing.T) {
	d := parseDocs(t, ".", "../state", "../trace")
	md, err := os.ReadFile(jsonDoc)
	if err != nil {
		t.Fatal(err)
	}
	gotMD, err := d.jsonTables(md)
	if err != nil {
		t.Fatal(err)
	}
	gotSchema := d.schema()
	for _, f := range []struct {
		path string
		got  []byte
	}{{jsonDoc, gotMD}, {schemaFile, gotSchema}} {
		if *update {
			if err := os.WriteFile(f.path, f.got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.got, want) {
			t.Errorf("%s differs from the view types (go test ./internal/view -run TestDocs -update); it should be:\n%s", f.path, f.got)
		}
	}
}

// A field without a doc comment has no meaning to document: every field
// of a view the documents show must have one.
func TestDocsNameEveryField(t *testing.T) {
	d := parseDocs(t, ".")
	types := append(slices.Clone(jsonTables), Document{})
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || rt.PkgPath() != reflect.TypeFor[Document]().PkgPath() || seen[rt] {
			return
		}
		seen[rt] = true
		for _, f := range fields(rt) {
			if d.field[f.owner.Name()+"."+f.Name] == "" && d.types[f.Type.Name()] == "" && !isTime(f.Type) {
				if rt == reflect.TypeFor[Document]() || slices.ContainsFunc(jsonTables, func(v any) bool { return reflect.TypeOf(v) == rt }) {
					t.Errorf("%s.%s has no doc comment", rt.Name(), f.Name)
				}
			}
			walk(f.Type)
		}
	}
	for _, v := range types {
		walk(reflect.TypeOf(v))
	}
}

// docs are the doc comments of the types and fields of the parsed packages.
type docs struct {
	types map[string]string // type name: its doc comment
	field map[string]string // Type.Field: its doc comment
}

func parseDocs(t *testing.T, dirs ...string) *docs {
	t.Helper()
	d := &docs{types: map[string]string{}, field: map[string]string{}}
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			d.add(f)
		}
	}
	return d
}

func (d *docs) add(f *ast.File) {
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, spec := range g.Specs {
			ts := spec.(*ast.TypeSpec)
			doc := ts.Doc
			if doc == nil && len(g.Specs) == 1 {
				doc = g.Doc
			}
			if _, dup := d.types[ts.Name.Name]; dup {
				continue // a name of another package: the view's own wins, parsed first
			}
			d.types[ts.Name.Name] = typeDescription(ts.Name.Name, doc.Text())
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			for _, fl := range st.Fields.List {
				for _, n := range fl.Names {
					d.field[ts.Name.Name+"."+n.Name] = oneParagraph(fl.Doc.Text())
				}
			}
		}
	}
}

// typeDescription is a type's (or a field's) doc comment as a
// description: "Issue is one thing ..." becomes "One thing ...".
func typeDescription(name, doc string) string {
	doc = oneParagraph(doc)
	for _, verb := range []string{" is ", " are "} {
		if rest, ok := strings.CutPrefix(doc, name+verb); ok {
			return strings.ToUpper(rest[:1]) + rest[1:]
		}
	}
	return doc
}

func oneParagraph(s string) string { return strings.Join(strings.Fields(s), " ") }

// field is one key of a view: a struct field with its JSON name.
type field struct {
	reflect.StructField
	// owner is the struct that declares it: the view's own type, or the
	// one embedded in it that holds its doc comment.
	owner    reflect.Type
	key      string
	optional bool // omitempty or omitzero: absent when empty
}

// fields are rt's JSON keys in order, embedded structs flattened.
func fields(rt reflect.Type) []field {
	var out []field
	for i := range rt.NumField() {
		f := rt.Field(i)
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" {
			out = append(out, fields(f.Type)...)
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		out = append(out, field{StructField: f, owner: rt, key: name, optional: strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")})
	}
	return out
}

func isTime(rt reflect.Type) bool {
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	return rt == reflect.TypeFor[time.Time]()
}

// description of a field: its doc comment, else its type's.
func (d *docs) description(f field) string {
	if s := d.field[f.owner.Name()+"."+f.Name]; s != "" {
		return typeDescription(f.Name, s)
	}
	rt := f.Type
	for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice {
		rt = rt.Elem()
	}
	if rt.Kind() == reflect.Struct && !isTime(rt) {
		return d.types[rt.Name()]
	}
	return ""
}

// The field tables of docs/json.md sit between these marks; the text
// around them is written by hand.
var tableMarks = regexp.MustCompile(`(?s)<!-- view\.(\w+): generated by go test ./internal/view -run TestDocs -update -->\n.*?<!-- end view\.(\w+) -->`)

func (d *docs) jsonTables(md []byte) ([]byte, error) {
	byName := map[string]reflect.Type{}
	for _, v := range jsonTables {
		byName[reflect.TypeOf(v).Name()] = reflect.TypeOf(v)
	}
	var err error
	done := map[string]bool{}
	out := tableMarks.ReplaceAllFunc(md, func(m []byte) []byte {
		sub := tableMarks.FindSubmatch(m)
		name := string(sub[1])
		rt, ok := byName[name]
		if !ok || string(sub[2]) != name {
			err = fmt.Errorf("docs/json.md: a table for view.%s, which is not a view with a table", name)
			return m
		}
		done[name] = true
		return []byte(fmt.Sprintf("<!-- view.%s: generated by go test ./internal/view -run TestDocs -update -->\n%s<!-- end view.%s -->", name, d.table(rt), name))
	})
	for name := range byName {
		if !done[name] && err == nil {
			err = fmt.Errorf("docs/json.md has no table for view.%s: add the marks where it belongs", name)
		}
	}
	return out, err
}

func (d *docs) table(rt reflect.Type) string {
	var b strings.Builder
	b.WriteString("| key | type | meaning |\n|---|---|---|\n")
	for _, f := range fields(rt) {
		desc := d.description(f)
		if f.optional {
			desc = strings.TrimSpace(desc + " Absent when empty.")
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.key, typeWord(f.Type), strings.ReplaceAll(desc, "|", `\|`))
	}
	return b.String()
}

// typeWord is a JSON type as the tables name it.
func typeWord(rt reflect.Type) string {
	switch {
	case rt == reflect.TypeFor[time.Time]():
		return "time"
	case rt == reflect.TypeFor[*time.Time]():
		return "time or `null`"
	}
	switch rt.Kind() {
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return "number"
	case reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice:
		return "list of " + typeWord(rt.Elem())
	case reflect.Pointer:
		return typeWord(rt.Elem()) + " or `null`"
	case reflect.Struct:
		return "object"
	}
	return rt.Kind().String()
}

// object is a JSON object whose keys keep their order.
type object []member

type member struct {
	key string
	val any
}

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		v, err := json.Marshal(m.val)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// schemaGen makes docs/export.schema.json: every struct of this package
// the document holds is a definition under $defs, named in snake_case;
// a struct of another package (a stored record) is written in place.
type schemaGen struct {
	*docs
	defs object
	seen map[reflect.Type]string
}

// consts are the keys whose value is fixed.
var consts = map[string]any{"Document.Schema": SchemaID, "Document.SchemaVersion": SchemaVersion}

func (d *docs) schema() []byte {
	g := &schemaGen{docs: d, seen: map[reflect.Type]string{}}
	root := reflect.TypeFor[Document]()
	body := g.object(root)
	doc := object{
		{"$schema", "https://json-schema.org/draft/2020-12/schema"},
		{"$id", SchemaID},
		{"title", "atreides session export"},
		{"description", "One session of a project as `atreides export` writes it (docs/export.md)."},
	}
	doc = append(doc, body[0])
	doc = append(doc, body[2:]...) // without the root's own description
	doc = append(doc, member{"$defs", g.defs})
	raw, err := json.Marshal(doc)
	if err != nil {
		panic(err) // only maps and slices of plain values: cannot fail
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		panic(err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

func (g *schemaGen) object(rt reflect.Type) object {
	props, required := object{}, []string{}
	for _, f := range fields(rt) {
		p := g.value(f.Type, f.Tag.Get("enum"))
		if m := f.Tag.Get("minimum"); m != "" {
			// A field whose -1 means "unknown" says so in a tag.
			n, _ := strconv.Atoi(m)
			p = object{{"type", "integer"}, {"minimum", n}}
		}
		if c, ok := consts[f.owner.Name()+"."+f.Name]; ok {
			p = object{{"const", c}}
		}
		if desc := g.description(f); desc != "" {
			p = append(p, member{"description", desc})
		}
		props = append(props, member{f.key, p})
		if !f.optional {
			required = append(required, f.key)
		}
	}
	o := object{{"type", "object"}}
	if desc := g.types[rt.Name()]; desc != "" && rt.PkgPath() == reflect.TypeFor[Document]().PkgPath() {
		o = append(o, member{"description", desc})
	}
	return append(o, member{"additionalProperties", false}, member{"properties", props}, member{"required", required})
}

func (g *schemaGen) value(rt reflect.Type, enum string) object {
	switch {
	case rt == reflect.TypeFor[time.Time]():
		return object{{"type", "string"}, {"format", "date-time"}}
	case rt == reflect.TypeFor[*time.Time]():
		return object{{"type", []string{"string", "null"}}, {"format", "date-time"}}
	}
	switch rt.Kind() {
	case reflect.String:
		if enum != "" {
			return object{{"type", "string"}, {"enum", strings.Split(enum, ",")}}
		}
		return object{{"type", "string"}}
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return object{{"type", "integer"}, {"minimum", 0}}
	case reflect.Float64:
		return object{{"type", "number"}}
	case reflect.Bool:
		return object{{"type", "boolean"}}
	case reflect.Slice:
		return object{{"type", "array"}, {"items", g.value(rt.Elem(), enum)}}
	case reflect.Pointer:
		return g.value(rt.Elem(), enum)
	case reflect.Struct:
		if rt.PkgPath() != reflect.TypeFor[Document]().PkgPath() {
			return g.object(rt)
		}
		name, ok := g.seen[rt]
		if !ok {
			name = snake(rt.Name())
			g.seen[rt] = name
			g.defs = append(g.defs, member{name, nil})
			i := len(g.defs) - 1
			g.defs[i].val = g.object(rt)
		}
		return object{{"$ref", "#/$defs/" + name}}
	}
	panic(fmt.Sprintf("a view holds a %s: the schema generator does not know it", rt))
}

// snake is a type name in snake_case, less the Export prefix that only
// tells the export's types from the other views': ExportLedgerRecord is
// ledger_record.
func snake(name string) string {
	name = strings.TrimPrefix(name, "Export")
	var b strings.Builder
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	return b.String()
}

// A hand edit inside a generated table is undone, and a view whose table
// lost its marks is an error, not a silent gap.
func TestDocsTables(t *testing.T) {
	d := parseDocs(t, ".", "../state", "../trace")
	md, err := os.ReadFile(jsonDoc)
	if err != nil {
		t.Fatal(err)
	}
	want, err := d.jsonTables(md)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(want, []byte("| `stale` | boolean |"), []byte("| `stale` | string |"), 1)
	if bytes.Equal(edited, want) {
		t.Fatal("the anchor table has no stale row to edit")
	}
	if got, err := d.jsonTables(edited); err != nil || !bytes.Equal(got, want) {
		t.Errorf("an edited table is not regenerated (err %v)", err)
	}
	unmarked := bytes.Replace(want, []byte("<!-- view.BgTask:"), []byte("<!-- gone:"), 1)
	if _, err := d.jsonTables(unmarked); err == nil || !strings.Contains(err.Error(), "view.BgTask") {
		t.Errorf("a table without marks: err = %v", err)
	}
}
