package config

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Schema is the JSON Schema (draft 2020-12) of a config file, generated
// from the one definition of the configuration, the Config struct (the
// loader walks the same types), with each setting's documentation and
// default taken from defaults.yaml. Editors with a YAML language server
// complete and check a config file against it. It is the schema of what
// the loader accepts where the two can say the same: the keys, their
// types, enumerated values and integer bounds. What only the loader checks
// (a rule's command or path, globs, the guard's names) it leaves to
// 'atreides config validate'. docs/config.schema.json is this, kept in
// step by a test (go generate ./internal/config).
//
//go:generate go test -run ^TestSchemaGenerated$ -update
func Schema() ([]byte, error) {
	g := schemaGen{docs: defaultDocs()}
	root := g.of(configType(), "", "", false)
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["$id"] = SchemaID
	root["title"] = "atreides configuration (.atreides/config.yaml, ~/.config/atreides/config.yaml)"
	out, err := json.MarshalIndent(root, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("config: JSON Schema: %w", err)
	}
	return append(out, '\n'), nil
}

// SchemaID names the schema; it is an identifier, not where editors read
// it from (SchemaFile, beside the config file, works offline).
const SchemaID = "https://github.com/atreides-dev/atreides/blob/main/docs/config.schema.json"

// SchemaFile is the schema's name beside a project's config file, which
// 'atreides init' writes there and names in the file's first line.
const SchemaFile = "config.schema.json"

// SchemaComment is the config file's line that points a YAML language
// server at SchemaFile beside it.
const SchemaComment = "# yaml-language-server: $schema=" + SchemaFile

type schemaGen struct {
	docs map[string]string // dotted path → defaults.yaml's comment
}

// of is t's schema at path (dotted; "" at the top). item is set for a
// list's items, which may not be null (the loader refuses that); any
// other setting may be, to reset it to the value below.
func (g schemaGen) of(t reflect.Type, tag reflect.StructTag, path string, item bool) map[string]any {
	s := map[string]any{}
	typ := func(names ...string) {
		if !item {
			names = append(names, "null")
		}
		s["type"] = names
	}
	switch t.Kind() {
	case reflect.Struct:
		typ("object")
		s["additionalProperties"] = false
		props := map[string]any{}
		for i := range t.NumField() {
			f := t.Field(i)
			if name := yamlName(f); name != "" {
				props[name] = g.of(f.Type, f.Tag, joinPath(path, name), false)
			}
		}
		s["properties"] = props
		if r, ok := reflect.Zero(t).Interface().(requirer); ok {
			r.require(s)
		}
	case reflect.Map:
		typ("object")
		s["additionalProperties"] = g.of(t.Elem(), "", joinPath(path, "*"), false)
	case reflect.Slice:
		typ("array")
		s["items"] = g.of(t.Elem(), "", joinPath(path, "*"), true)
	case reflect.Bool:
		typ("boolean")
	case reflect.Int:
		typ("integer")
		if lo, ok := intTag(tag, "min"); ok {
			s["minimum"] = lo
		}
		if hi, ok := intTag(tag, "max"); ok {
			s["maximum"] = hi
		}
	case reflect.String:
		g.text(s, t, item)
	}
	if d := g.docs[path]; d != "" {
		s["description"] = d
	}
	if d, ok := defaultScalar(path); ok {
		s["default"] = d
	}
	return s
}

// text is a string setting's schema: its values when they are a fixed
// set; else any scalar, as the loader reads `name: 42` as "42".
func (schemaGen) text(s map[string]any, t reflect.Type, item bool) {
	if e, ok := reflect.Zero(t).Interface().(enumerated); ok {
		var vals []any
		for _, v := range e.values() {
			vals = append(vals, v)
		}
		if !item {
			vals = append(vals, nil)
		}
		s["enum"] = vals
		return
	}
	names := []string{"string", "number", "boolean"}
	if !item {
		names = append(names, "null")
	}
	s["type"] = names
}

// requirer is a struct type whose mapping check (checkMapping) has
// rules a schema can say too: the keys it needs.
type requirer interface{ require(schema map[string]any) }

// require: a rule needs a verdict, and a command or a path, not both.
func (Rule) require(s map[string]any) {
	s["required"] = []string{"verdict"}
	s["oneOf"] = []any{
		map[string]any{"required": []string{"command"}},
		map[string]any{"required": []string{"path"}},
	}
}

// require: a check needs its globs and its command.
func (Check) require(s map[string]any) { s["required"] = []string{"globs", "command"} }

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// defaultScalar is the built-in value of the scalar setting at path.
func defaultScalar(path string) (any, bool) {
	v := defaultTree()
	for k := range strings.SplitSeq(path, ".") {
		if v == nil || k == "*" {
			return nil, false
		}
		v = v.child(k)
	}
	if v == nil || v.kind != kindScalar {
		return nil, false
	}
	return v.scalar, true
}

// defaultDocs are the comments above each key of defaults.yaml, by
// dotted path: the reference documentation of every setting.
func defaultDocs() map[string]string {
	docs := map[string]string{}
	var doc yaml.Node
	if yaml.Unmarshal(defaultYAML, &doc) != nil || len(doc.Content) == 0 {
		return docs
	}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := joinPath(path, k.Value)
			if c := commentText(k.HeadComment); c != "" {
				docs[p] = c
			}
			walk(v, p)
		}
	}
	walk(doc.Content[0], "")
	return docs
}

// commentText is a YAML comment block as prose: the # marks gone, the
// lines joined; the file's own head (before its first key) is not a
// setting's and has a blank line after it, which ends the block.
func commentText(c string) string {
	if _, after, ok := strings.Cut(c, "\n\n"); ok {
		c = after
	}
	var lines []string
	for l := range strings.SplitSeq(c, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "#"))
		if l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
}
