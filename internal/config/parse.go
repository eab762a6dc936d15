package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Optional hooks a schema type implements; see schema.go.
type (
	textChecker interface {
		// checkText returns a message if s is not allowed, else "".
		checkText(s string) string
	}
	mappingChecker interface {
		checkMapping(m *mappingCheck)
	}
)

// The types are looked up where they are used: package variables
// holding them would be init work in every hook process.
func configType() reflect.Type         { return reflect.TypeFor[Config]() }
func mappingCheckerType() reflect.Type { return reflect.TypeFor[mappingChecker]() }

// parse decodes and validates one file. It returns the file's value tree
// (nil for an empty or unparsable file) with every problem found in it and
// the notes on retired keys: a file with errors in its values still has a
// tree. It never panics.
func parse(file string, data []byte) (v *value, errs, notes []FieldError) {
	defer func() {
		// The YAML parser is third-party code fed untrusted bytes; a hook
		// process must answer rather than crash.
		if r := recover(); r != nil {
			v, errs, notes = nil, []FieldError{{File: file, Msg: fmt.Sprintf("internal error parsing YAML: %v", r)}}, nil
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, nil
		}
		return nil, []FieldError{syntaxError(file, err)}, nil
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		return nil, []FieldError{{File: file, Line: extra.Line, Col: extra.Column, Msg: "more than one YAML document (---); a config file holds one"}}, nil
	case !errors.Is(err, io.EOF):
		return nil, []FieldError{syntaxError(file, err)}, nil
	}
	if len(doc.Content) == 0 {
		return nil, nil, nil
	}
	top := resolve(doc.Content[0])
	if isNull(top) {
		return nil, nil, nil
	}
	if top.Kind != yaml.MappingNode {
		return nil, []FieldError{{File: file, Line: top.Line, Col: top.Column,
			Msg: fmt.Sprintf("the top level must be a mapping (key: value), not %s", describe(top))}}, nil
	}
	w := walker{file: file}
	v = w.walk(top, configType(), "", "", top, false)
	return v, w.errs, w.notes
}

// syntaxError turns the parser's "yaml: line N: msg" into a FieldError.
func syntaxError(file string, err error) FieldError {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, ok := strings.Cut(rest, ": "); ok {
			if l, err := strconv.Atoi(n); err == nil {
				line, msg = l, after
			}
		}
	}
	return FieldError{File: file, Line: line, Msg: "YAML syntax error: " + msg}
}

type walker struct {
	file  string
	errs  []FieldError
	notes []FieldError // retired keys, skipped
}

// retiredKey says whether key is one earlier versions had, and why it is
// gone. A file that still sets one loads (the key is skipped, and 'config
// validate' and the session-start health check say so): refusing it would
// make the guard fail closed on every tool call over a setting that no
// longer does anything. A switch, not a map: a package-level map is init
// work in every hook process, and this is read only when a file is parsed.
func retiredKey(key string) (why string, ok bool) {
	switch key {
	case "session.agents":
		return "moved: the agents are defined in the top-level agents section (agents.<id>.name); remove this section", true
	case "session.strikes.oracle_subagent_type":
		return "no longer used: the escalation names the enabled agent of role oracle (agents.stilgar by default) as the host calls it; remove this key", true
	case "log":
		return "no longer used: atreides's own log keeps only its errors, and its decisions go to the audit trail ('atreides log'); remove this section", true
	case "governance.delegation":
		return "moved to the top-level delegation section, which applies whatever governance.enabled says (timeout_minutes is now deadline_minutes); move its keys there", true
	}
	return "", false
}

func (w *walker) fail(n *yaml.Node, key, msg string) {
	w.errs = append(w.errs, FieldError{File: w.file, Line: n.Line, Col: n.Column, Key: key, Msg: msg})
}

func (w *walker) src(n *yaml.Node) Source {
	return Source{File: w.file, Line: n.Line, Col: n.Column}
}

// walk validates n against t and returns its value, or nil after
// recording why it is invalid. key is the printable path; tag is the
// struct field's tag (for min/max); at is where a list or mapping counts
// as being set (its key, so that Pos points at "guard:" rather than the
// first line under it).
//
// An invalid value is reported and left out, and what holds it keeps
// the rest: the tree of a file with errors is its readable part, which
// 'config validate' checks for meaning in the same pass and the fallback
// (fallback.go) applies where it tightens. Load refuses such a file
// whole. Only a mapping whose own check fails (a rule without a verdict)
// or a list item with an invalid part is left out whole: its parts mean
// nothing apart. Recursion is bounded by the depth of the schema,
// which is what makes self-referencing aliases harmless.
func (w *walker) walk(n *yaml.Node, t reflect.Type, key string, tag reflect.StructTag, at *yaml.Node, inList bool) *value {
	n = resolve(n)
	if isNull(n) {
		return &value{kind: kindNull, src: w.src(n)}
	}
	switch t.Kind() {
	case reflect.Struct:
		return w.walkStruct(n, t, key, at, inList)
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			w.fail(n, key, "expected a mapping, got "+describe(n))
			return nil
		}
		v := &value{kind: kindMapping, free: true, src: w.src(at), fields: map[string]*value{}}
		w.pairs(n, key, func(k string, kn, vn *yaml.Node) {
			ck := joinKey(key, k)
			// An invalid entry is left out of the partial tree (see walk).
			if c := w.walk(vn, t.Elem(), ck, "", kn, false); c != nil {
				v.keys = append(v.keys, k)
				v.fields[k] = c
			}
		})
		return v
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			w.fail(n, key, "expected a list, got "+describe(n))
			return nil
		}
		v := &value{kind: kindList, src: w.src(at), items: make([]*value, 0, len(n.Content))}
		for i, in := range n.Content {
			ik := joinIndex(key, i)
			c := w.walk(in, t.Elem(), ik, "", in, true)
			if c != nil && c.kind == kindNull {
				w.fail(resolve(in), ik, "expected "+expect(t.Elem())+", got null")
				c = nil
			}
			if c != nil {
				v.items = append(v.items, c)
			}
		}
		return v
	}
	return w.walkScalar(n, t, key, tag)
}

func (w *walker) walkStruct(n *yaml.Node, t reflect.Type, key string, at *yaml.Node, inList bool) *value {
	if n.Kind != yaml.MappingNode {
		w.fail(n, key, "expected a mapping, got "+describe(n))
		return nil
	}
	v := &value{kind: kindMapping, src: w.src(at), fields: map[string]*value{}}
	m := mappingCheck{w: w, v: v, key: key, node: n, present: map[string]*yaml.Node{}}
	whole := true
	w.pairs(n, key, func(k string, kn, vn *yaml.Node) {
		ck := joinKey(key, k)
		f, found := fieldByName(t, k)
		if !found {
			if why, ok := retiredKey(ck); ok {
				w.notes = append(w.notes, FieldError{File: w.file, Line: kn.Line, Col: kn.Column, Key: ck, Msg: why})
				return
			}
			w.fail(kn, ck, unknownKey(t, k))
			return
		}
		c := w.walk(vn, f.Type, ck, f.Tag, kn, false)
		if c == nil {
			whole = false
			m.present[k] = vn
			return
		}
		if c.kind == kindNull && (f.Type.Kind() == reflect.Struct || inList) {
			// An empty section sets nothing; inside a list item there is
			// no lower layer to reset to, so null is plain absence.
			return
		}
		m.present[k] = vn
		v.keys = append(v.keys, k)
		v.fields[k] = c
	})
	if reflect.PointerTo(t).Implements(mappingCheckerType()) {
		before := len(w.errs)
		reflect.New(t).Interface().(mappingChecker).checkMapping(&m)
		if len(w.errs) != before {
			return nil
		}
	}
	if inList && !whole {
		// A list item (a rule, a check) is one thing: a rule without
		// its tool would apply to every tool.
		return nil
	}
	// Schema order, not file order, so that merged trees and Show read
	// the same whatever order each file used.
	slices.SortFunc(v.keys, func(a, b string) int { return fieldIndex(t, a) - fieldIndex(t, b) })
	return v
}

func (w *walker) walkScalar(n *yaml.Node, t reflect.Type, key string, tag reflect.StructTag) *value {
	if n.Kind != yaml.ScalarNode {
		w.fail(n, key, "expected "+expect(t)+", got "+describe(n))
		return nil
	}
	v := &value{kind: kindScalar, src: w.src(n)}
	switch t.Kind() {
	case reflect.String:
		// Any scalar is accepted as text: `name: 42` means "42". The tag
		// is kept so that Show writes 42, not "42".
		v.scalar = n.Value
		switch tag := n.ShortTag(); tag {
		case "!!bool", "!!int", "!!float":
			v.tag = tag
		}
		if c, ok := reflect.Zero(t).Interface().(textChecker); ok {
			if msg := c.checkText(n.Value); msg != "" {
				w.fail(n, key, msg)
				return nil
			}
		}
	case reflect.Bool:
		b, err := strconv.ParseBool(n.Value)
		if n.ShortTag() != "!!bool" || err != nil {
			w.fail(n, key, "expected true or false, got "+describe(n))
			return nil
		}
		v.scalar = b
	case reflect.Int:
		var i int
		if n.ShortTag() != "!!int" {
			w.fail(n, key, "expected an integer, got "+describe(n))
			return nil
		}
		if err := n.Decode(&i); err != nil {
			w.fail(n, key, fmt.Sprintf("%s is out of range", n.Value))
			return nil
		}
		if msg := checkRange(i, tag); msg != "" {
			w.fail(n, key, msg)
			return nil
		}
		v.scalar = i
	default:
		w.fail(n, key, fmt.Sprintf("internal error: unsupported schema type %v", t))
		return nil
	}
	return v
}

// pairs calls f for every key of a mapping, reporting non-text keys,
// duplicates and merge keys instead.
func (w *walker) pairs(n *yaml.Node, key string, f func(k string, kn, vn *yaml.Node)) {
	seen := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := resolve(n.Content[i]), n.Content[i+1]
		if kn.Kind != yaml.ScalarNode {
			w.fail(kn, key, "a key must be text, not "+describe(kn))
			continue
		}
		k := kn.Value
		if kn.ShortTag() == "!!merge" {
			w.fail(kn, joinKey(key, k), "YAML merge keys (<<) are not supported; repeat the keys")
			continue
		}
		if first, dup := seen[k]; dup {
			w.fail(kn, joinKey(key, k), fmt.Sprintf("duplicate key (first set on line %d)", first))
			continue
		}
		seen[k] = kn.Line
		f(k, kn, vn)
	}
}

// mappingCheck gives a mappingChecker what one file said in one mapping.
type mappingCheck struct {
	w       *walker
	v       *value
	key     string
	node    *yaml.Node
	present map[string]*yaml.Node // non-null keys, valid or not
}

// has reports whether the file set key (to something other than null).
func (m *mappingCheck) has(key string) bool { return m.present[key] != nil }

// get returns key's valid value, or nil if it is absent or invalid.
func (m *mappingCheck) get(key string) *value { return m.v.fields[key] }

// errorf reports a problem with the mapping as a whole.
func (m *mappingCheck) errorf(msg string) { m.w.fail(m.node, m.key, msg) }

// errorAt reports a problem with one key's value.
func (m *mappingCheck) errorAt(key, msg string) {
	m.w.fail(resolve(m.present[key]), joinKey(m.key, key), msg)
}

// setDefault fills in a key the file left out, for list items, which
// have no lower layer to inherit from.
func (m *mappingCheck) setDefault(key string, s string) {
	m.v.keys = append(m.v.keys, key)
	m.v.fields[key] = &value{kind: kindScalar, scalar: s}
}

func fieldIndex(t reflect.Type, name string) int {
	f, _ := fieldByName(t, name)
	if len(f.Index) == 0 {
		return -1
	}
	return f.Index[0]
}

func fieldByName(t reflect.Type, name string) (reflect.StructField, bool) {
	if name == "" {
		// Fields without a yaml tag (Config.root) are not part of the schema.
		return reflect.StructField{}, false
	}
	for i := range t.NumField() {
		if f := t.Field(i); yamlName(f) == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// unknownKey suggests the nearest known key for a likely typo, else lists them all.
func unknownKey(t reflect.Type, k string) string {
	var names []string
	for i := range t.NumField() {
		if name := yamlName(t.Field(i)); name != "" {
			names = append(names, name)
		}
	}
	if best, ok := Nearest(k, names); ok {
		return fmt.Sprintf("unknown key (did you mean %q?)", best)
	}
	return "unknown key (known: " + strings.Join(names, ", ") + ")"
}

// Nearest is the name of known nearest to s (Levenshtein distance) when
// it is near enough to be a typo of it: at most two edits, or a quarter
// of s's length for long names such as rule ids. It gives the
// did-you-mean of every unknown name in a configuration: keys here, and
// rule ids, groups and switches in package policy.
func Nearest(s string, known []string) (string, bool) {
	best, bestDist := "", max(3, len(s)/4+1)
	for _, k := range known {
		if d := Distance(s, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best, best != ""
}

// Distance is the Levenshtein distance in bytes, for the did-you-mean
// of every unknown name: configuration keys and guard names here, flags
// in package command.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func checkRange(i int, tag reflect.StructTag) string {
	lo, hasLo := intTag(tag, "min")
	hi, hasHi := intTag(tag, "max")
	switch {
	case hasLo && hasHi && (i < lo || i > hi):
		return fmt.Sprintf("%d is not between %d and %d", i, lo, hi)
	case hasLo && i < lo:
		return fmt.Sprintf("%d is less than %d", i, lo)
	case hasHi && i > hi:
		return fmt.Sprintf("%d is more than %d", i, hi)
	}
	return ""
}

func intTag(tag reflect.StructTag, name string) (int, bool) {
	s, ok := tag.Lookup(name)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(s)
	return i, err == nil
}

func resolve(n *yaml.Node) *yaml.Node {
	// An alias can point at another alias; the parser rejects unknown
	// anchors, so each step reaches a defined node. Bound the chain anyway.
	for range 100 {
		if n.Kind != yaml.AliasNode || n.Alias == nil {
			return n
		}
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// describe names what the file holds, for "expected X, got Y".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "the boolean " + n.Value
		case "!!int":
			return "the integer " + n.Value
		case "!!float":
			return "the number " + n.Value
		}
		return "the string " + strconv.Quote(n.Value)
	}
	return "a YAML node of kind " + strconv.Itoa(int(n.Kind))
}

func expect(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Slice:
		return "a list"
	case reflect.Bool:
		return "true or false"
	case reflect.Int:
		return "an integer"
	}
	return "a string"
}
