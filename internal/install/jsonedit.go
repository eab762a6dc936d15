package install

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// EncodeOver writes n as an edit of src, the text n was parsed from: a
// value whose children are all still those parsed is copied from src byte
// for byte, comments and spacing included; an edited object or array keeps
// the text around the children that stayed (separators, comments, the
// layout before its closing bracket) and writes only what was added, in
// the layout of its siblings (f gives the indentation of nested lines).
// Appending a member and removing it again therefore gives back src
// exactly. A node that was not parsed from src is encoded afresh.
//
// The edit is made on hujson's syntax tree of src, which keeps every
// comment and space and places the commas itself. n may have been parsed
// from src with its comments blanked (stripJSONComments, for a host that
// strips them): the offsets are the same.
func (n *Node) EncodeOver(src []byte, f Format) []byte {
	if n.src.end == 0 || n.src.end > len(src) {
		return n.Encode(f)
	}
	root, err := syntaxOf(src)
	if err != nil {
		return n.Encode(f)
	}
	if f.Indent == "" {
		f.Indent = "  "
	}
	if f.Newline == "" {
		f.Newline = "\n"
	}
	e := editor{f: f, at: make(map[int]*hujson.Value)}
	for v := range root.All() {
		e.at[v.StartOffset] = v
	}
	target := e.parsed(n)
	if target == nil {
		return n.Encode(f)
	}
	target.Value = e.value(n, 0)
	return root.Pack()
}

// syntaxOf is hujson's syntax tree of src. It parses src with its comments
// blanked, as the document was, and then puts src's own text back between
// the values: hujson refuses a block comment left open at the end, which a
// host that strips comments reads as running to the end of the file.
func syntaxOf(src []byte) (hujson.Value, error) {
	root, err := hujson.Parse(stripJSONComments(src))
	if err != nil {
		return root, fmt.Errorf("parse settings syntax: %w", err)
	}
	restore := func(x hujson.Extra, start int) hujson.Extra {
		if x == nil {
			return nil // no trailing comma
		}
		return hujson.Extra(src[start : start+len(x) : start+len(x)])
	}
	for v := range root.All() {
		v.BeforeExtra = restore(v.BeforeExtra, v.StartOffset-len(v.BeforeExtra))
		v.AfterExtra = restore(v.AfterExtra, v.EndOffset)
		switch t := v.Value.(type) {
		case *hujson.Object:
			t.AfterExtra = restore(t.AfterExtra, v.EndOffset-1-len(t.AfterExtra))
		case *hujson.Array:
			t.AfterExtra = restore(t.AfterExtra, v.EndOffset-1-len(t.AfterExtra))
		}
	}
	return root, nil
}

// editor rebuilds the syntax tree of src for an edited document.
type editor struct {
	f  Format
	at map[int]*hujson.Value // src's values by start offset
}

// parsed is the value n was parsed from in src, or nil when n was built in
// code or src holds something else there.
func (e *editor) parsed(n *Node) *hujson.Value {
	if n.src.end == 0 {
		return nil
	}
	v := e.at[n.src.start]
	if v == nil || v.EndOffset != n.src.end {
		return nil
	}
	return v
}

// pristine reports whether a parsed node still holds exactly what it was
// parsed with, all the way down.
func (n *Node) pristine() bool {
	if n.src.end == 0 {
		return false
	}
	switch n.kind {
	case KindArray:
		if len(n.elems) != len(n.src.elems) {
			return false
		}
		for i, c := range n.elems {
			if c != n.src.elems[i] || !c.pristine() {
				return false
			}
		}
	case KindObject:
		if len(n.members) != len(n.src.members) {
			return false
		}
		for i, m := range n.members {
			if m.idx != i+1 || m.Value != n.src.members[i].Value || !m.Value.pristine() {
				return false
			}
		}
	}
	return true
}

// value is the syntax of n: what src held for it when it is pristine, an
// edit of that when it is an edited container, else n encoded afresh.
func (e *editor) value(n *Node, depth int) hujson.ValueTrimmed {
	v := e.parsed(n)
	switch {
	case v != nil && n.pristine():
		return v.Value
	case v == nil || (n.kind != KindArray && n.kind != KindObject):
		return fresh(n, e.f, depth)
	}
	return e.container(n, v.Value, depth)
}

// fresh is n encoded in the layout f at depth, as syntax.
func fresh(n *Node, f Format, depth int) hujson.ValueTrimmed {
	var b bytes.Buffer
	encode(&b, n, f, depth)
	v, err := hujson.Parse(b.Bytes())
	if err != nil {
		// encode writes valid JSON (FuzzParseEncode); keep its text as is.
		return hujson.Literal(b.Bytes())
	}
	return v.Value
}

// children is a parsed container's syntax: for child i, the text after the
// separator before it (after the opening bracket for the first) and the
// text after it up to its comma (none for the last); then the text after
// the last child up to the closing bracket.
type children struct {
	names       []hujson.Value // objects only
	values      []hujson.Value
	before      []string
	afterValue  []string
	beforeClose string
}

func childrenOf(v hujson.ValueTrimmed) children {
	var c children
	switch t := v.(type) {
	case *hujson.Object:
		for _, m := range t.Members {
			c.names = append(c.names, m.Name)
			c.values = append(c.values, m.Value)
			c.before = append(c.before, string(m.Name.BeforeExtra))
			c.afterValue = append(c.afterValue, string(m.Value.AfterExtra))
		}
		c.beforeClose = string(t.AfterExtra)
	case *hujson.Array:
		for _, el := range t.Elements {
			c.values = append(c.values, el)
			c.before = append(c.before, string(el.BeforeExtra))
			c.afterValue = append(c.afterValue, string(el.AfterExtra))
		}
		c.beforeClose = string(t.AfterExtra)
	}
	return c
}

// item is one child of an edited container: its index among the parsed
// children (-1 when added), its key for an object, and its value.
type item struct {
	orig  int
	key   string
	value *Node
}

func items(n *Node) []item {
	var out []item
	if n.kind == KindObject {
		k := len(n.src.members)
		for _, m := range n.members {
			o := -1
			if m.idx > 0 && m.idx <= k && n.src.members[m.idx-1].Key == m.Key {
				o = m.idx - 1
			}
			out = append(out, item{orig: o, key: m.Key, value: m.Value})
		}
		return out
	}
	pos := make(map[*Node]int, len(n.src.elems))
	for i, c := range n.src.elems {
		pos[c] = i
	}
	for _, c := range n.elems {
		o, ok := pos[c]
		if !ok {
			o = -1
		}
		out = append(out, item{orig: o, value: c})
	}
	return out
}

// container rebuilds an edited object or array. A child that stayed keeps
// the text before it, and the text before its comma when its predecessor
// stayed too; one moved to the front keeps both (its comma goes); an added
// child gets the layout of its siblings. The text before the closing
// bracket stays.
func (e *editor) container(n *Node, parsed hujson.ValueTrimmed, depth int) hujson.ValueTrimmed {
	c := childrenOf(parsed)
	its := items(n)
	sep, colon, freshFmt := e.layout(n, c, depth)
	vals := make([]hujson.Value, len(its))
	names := make([]hujson.Value, len(its))
	for j, it := range its {
		var before string
		switch {
		case it.orig < 0:
			before = sep
		case it.orig > 0 && j == 0:
			before = c.afterValue[it.orig-1] + c.before[it.orig]
		default:
			before = c.before[it.orig]
		}
		if j > 0 && it.orig > 0 {
			vals[j-1].AfterExtra = hujson.Extra(c.afterValue[it.orig-1])
		}
		vals[j] = e.child(it, c, freshFmt, depth)
		if n.kind != KindObject {
			vals[j].BeforeExtra = hujson.Extra(before)
			continue
		}
		if it.orig >= 0 {
			names[j] = c.names[it.orig]
		} else {
			// writeString, not hujson.String: invalid UTF-8 becomes
			// \ufffd, as JSON.stringify writes it.
			var key bytes.Buffer
			writeString(&key, it.key)
			pre, post, _ := strings.Cut(colon, ":")
			names[j] = hujson.Value{Value: hujson.Literal(key.Bytes()), AfterExtra: hujson.Extra(pre)}
			vals[j].BeforeExtra = hujson.Extra(post)
		}
		names[j].BeforeExtra = hujson.Extra(before)
	}
	var tail string
	switch {
	case len(its) == 0:
	case len(c.values) > 0:
		tail = c.beforeClose
	case freshFmt.Newline != "":
		var b bytes.Buffer
		newline(&b, freshFmt, depth)
		tail = b.String()
	}
	if len(vals) > 0 {
		vals[len(vals)-1].AfterExtra = nil // no trailing comma
	}
	if n.kind != KindObject {
		return &hujson.Array{Elements: vals, AfterExtra: hujson.Extra(tail)}
	}
	obj := &hujson.Object{AfterExtra: hujson.Extra(tail)}
	for j := range vals {
		obj.Members = append(obj.Members, hujson.ObjectMember{Name: names[j], Value: vals[j]})
	}
	return obj
}

// child is the value of one item: a parsed member's value keeps the text
// between its colon and itself; a value parsed from src is edited; a
// built one is encoded in the layout for added children.
func (e *editor) child(it item, c children, freshFmt Format, depth int) hujson.Value {
	var v hujson.Value
	if it.orig >= 0 && c.names != nil {
		v.BeforeExtra = c.values[it.orig].BeforeExtra
	}
	if it.value.src.end != 0 {
		v.Value = e.value(it.value, depth+1)
	} else {
		v.Value = fresh(it.value, freshFmt, depth+1)
	}
	return v
}

// layout works out how to write an added child of n: the text before it
// (after its comma), the key separator, and the format for its value.
// Siblings on their own lines give theirs; a container written on one line
// gets its additions on that line too, compactly.
func (e *editor) layout(n *Node, c children, depth int) (sep, colon string, f Format) {
	f = e.f
	colon = ": "
	if len(c.values) == 0 {
		if !strings.Contains(c.beforeClose, "\n") && depth > 0 {
			return "", ":", compactFormat
		}
		return f.Newline + strings.Repeat(f.Indent, depth+1), colon, f
	}
	if i := strings.LastIndex(c.before[0], "\n"); i >= 0 {
		ws := c.before[0][i+1:]
		return f.Newline + ws[:len(ws)-len(strings.TrimLeft(ws, " \t"))], colonOf(c, colon), f
	}
	sep = ""
	if len(c.values) > 1 {
		gap := c.afterValue[0] + c.before[1]
		sep = gap[:len(gap)-len(strings.TrimLeft(gap, " \t"))]
	}
	f = compactFormat
	if sep != "" {
		f = spacedFormat
	}
	return sep, colonOf(c, f.colon()), f
}

// colonOf is the text between key and value of the first parsed member,
// if there is one and it is plain; else def.
func colonOf(c children, def string) string {
	if len(c.names) == 0 {
		return def
	}
	pre, post := string(c.names[0].AfterExtra), string(c.values[0].BeforeExtra)
	if strings.Trim(pre+post, " \t") != "" || strings.ContainsAny(pre+post, "\r\n") {
		return def
	}
	return pre + ":" + post
}
