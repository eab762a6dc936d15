package install

import (
	"bytes"
	"strings"
)

// EncodeOver writes n as an edit of src, the text n was parsed from: a
// value whose children are all still those parsed is copied from src byte
// for byte, comments and spacing included; an edited object or array keeps
// the text around the children that stayed (separators, comments, the
// layout before its closing bracket) and writes only what was added, in
// the layout of its siblings (f gives the indentation of nested lines).
// Appending a member and removing it again therefore gives back src
// exactly. A node that was not parsed from src is encoded afresh.
func (n *Node) EncodeOver(src []byte, f Format) []byte {
	if n.src.end == 0 || n.src.end > len(src) {
		return n.Encode(f)
	}
	if f.Indent == "" {
		f.Indent = "  "
	}
	if f.Newline == "" {
		f.Newline = "\n"
	}
	var b bytes.Buffer
	b.Write(src[:n.src.start])
	e := editor{src: src, f: f}
	e.write(&b, n, 0)
	b.Write(src[n.src.end:])
	return b.Bytes()
}

type editor struct {
	src []byte
	f   Format
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

// item is one child of an edited container: its index among the parsed
// children (-1 when added) and how to write it.
type item struct {
	orig  int
	key   *Member // objects only
	value *Node
}

func (e *editor) write(b *bytes.Buffer, n *Node, depth int) {
	switch {
	case n.pristine():
		b.Write(e.src[n.src.start:n.src.end])
	case n.src.end == 0 || (n.kind != KindArray && n.kind != KindObject):
		encode(b, n, e.f, depth)
	default:
		e.container(b, n, depth)
	}
}

// bounds is where the parsed child i starts (its key, for a member) and ends.
func bounds(n *Node, i int) (int, int) {
	if n.kind == KindObject {
		m := n.src.members[i]
		return m.keyStart, m.Value.src.end
	}
	c := n.src.elems[i]
	return c.src.start, c.src.end
}

func (e *editor) container(b *bytes.Buffer, n *Node, depth int) {
	var items []item
	k := 0
	if n.kind == KindObject {
		k = len(n.src.members)
		for i := range n.members {
			m := &n.members[i]
			o := -1
			if m.idx > 0 && m.idx <= k && n.src.members[m.idx-1].Key == m.Key {
				o = m.idx - 1
			}
			items = append(items, item{orig: o, key: m, value: m.Value})
		}
	} else {
		k = len(n.src.elems)
		pos := make(map[*Node]int, k)
		for i, c := range n.src.elems {
			pos[c] = i
		}
		for _, c := range n.elems {
			o, ok := pos[c]
			if !ok {
				o = -1
			}
			items = append(items, item{orig: o, value: c})
		}
	}
	open, close := n.src.start+1, n.src.end-1
	b.WriteByte(e.src[n.src.start])
	lead := func(i int) string { // the text before parsed child i
		if i == 0 {
			s, _ := bounds(n, 0)
			return string(e.src[open:s])
		}
		_, prevEnd := bounds(n, i-1)
		s, _ := bounds(n, i)
		return string(e.src[prevEnd:s])
	}
	sep, colon, fresh := e.layout(n, k, depth)
	for j, it := range items {
		switch {
		case it.orig < 0 && j == 0:
			b.WriteString(sep)
		case it.orig < 0:
			b.WriteString("," + sep)
		case it.orig == 0 && j > 0:
			b.WriteString("," + lead(0))
		case it.orig > 0 && j == 0:
			b.WriteString(dropComma(lead(it.orig)))
		default:
			b.WriteString(lead(it.orig))
		}
		e.child(b, n, it, colon, fresh, depth)
	}
	switch {
	case len(items) == 0:
	case k > 0:
		_, lastEnd := bounds(n, k-1)
		b.WriteString(string(e.src[lastEnd:close]))
	case fresh.Newline != "":
		newline(b, fresh, depth)
	}
	b.WriteByte(e.src[close])
}

// child writes one item: a parsed member keeps its key's text up to the
// value, an added one gets the container's key separator.
func (e *editor) child(b *bytes.Buffer, n *Node, it item, colon string, fresh Format, depth int) {
	if it.key != nil {
		if it.orig >= 0 {
			m := n.src.members[it.orig]
			b.Write(e.src[m.keyStart:m.Value.src.start])
		} else {
			writeString(b, it.key.Key)
			b.WriteString(colon)
		}
	}
	if it.value.src.end != 0 {
		e.write(b, it.value, depth+1)
		return
	}
	encode(b, it.value, fresh, depth+1)
}

// layout works out how to write an added child of n: the text before it
// (after its comma), the key separator, and the format for its value.
// Siblings on their own lines give theirs; a container written on one line
// gets its additions on that line too, compactly.
func (e *editor) layout(n *Node, k, depth int) (sep, colon string, f Format) {
	f = e.f
	colon = ": "
	if k == 0 {
		inner := e.src[n.src.start+1 : n.src.end-1]
		if !bytes.Contains(inner, []byte("\n")) && depth > 0 && e.oneLine(n) {
			return "", ":", compactFormat
		}
		return f.Newline + strings.Repeat(f.Indent, depth+1), colon, f
	}
	s0, _ := bounds(n, 0)
	first := string(e.src[n.src.start+1 : s0])
	if i := strings.LastIndex(first, "\n"); i >= 0 {
		ws := first[i+1:]
		return f.Newline + ws[:len(ws)-len(strings.TrimLeft(ws, " \t"))], e.colonOf(n, colon), f
	}
	sep = ""
	if k > 1 {
		_, end0 := bounds(n, 0)
		s1, _ := bounds(n, 1)
		gap := dropComma(string(e.src[end0:s1]))
		sep = gap[:len(gap)-len(strings.TrimLeft(gap, " \t"))]
	}
	f = compactFormat
	if sep != "" {
		f = spacedFormat
	}
	return sep, e.colonOf(n, f.colon()), f
}

// oneLine reports whether the text n was parsed from holds no line break.
func (e *editor) oneLine(n *Node) bool {
	return !bytes.Contains(e.src[n.src.start:n.src.end], []byte("\n"))
}

// colonOf is the text between key and value of n's first parsed member, if
// it has one and it is plain; else def.
func (e *editor) colonOf(n *Node, def string) string {
	if n.kind != KindObject || len(n.src.members) == 0 {
		return def
	}
	m := n.src.members[0]
	c := string(e.src[m.keyStart+len(m.keyRaw) : m.Value.src.start])
	if strings.Trim(c, " \t") != ":" || strings.ContainsAny(c, "\r\n") {
		return def
	}
	return c
}

// dropComma removes the separating comma from the text between two
// children, skipping comments, for a child that moved to the front.
func dropComma(gap string) string {
	for i := 0; i < len(gap); i++ {
		switch {
		case strings.HasPrefix(gap[i:], "//"):
			j := strings.IndexByte(gap[i:], '\n')
			if j < 0 {
				return gap
			}
			i += j
		case strings.HasPrefix(gap[i:], "/*"):
			j := strings.Index(gap[i+2:], "*/")
			if j < 0 {
				return gap
			}
			i += j + 3
		case gap[i] == ',':
			return gap[:i] + gap[i+1:]
		}
	}
	return gap
}
