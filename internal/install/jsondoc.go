package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

// Kind is the JSON type of a Node.
type Kind uint8

// The JSON value kinds.
const (
	KindNull Kind = iota
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindBool:
		return "boolean"
	case KindNumber:
		return "number"
	case KindString:
		return "string"
	case KindArray:
		return "array"
	case KindObject:
		return "object"
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Node is one JSON value in an order-preserving document. Objects keep their
// members in file order (duplicates included, so nothing is ever dropped);
// numbers keep their literal text; strings read from a file keep their
// original literal so that `\u00e9` or `\/` written by the user comes back
// out unchanged. The zero Node is null.
type Node struct {
	kind    Kind
	text    string // number literal, decoded string, or "true"/"false"
	raw     string // original string literal (with quotes); "" when built in code
	members []Member
	elems   []*Node
	src     span // where a parsed node's text is; see EncodeOver
}

// span is a parsed node's place in the text it came from, and the children
// it had there: EncodeOver writes a node whose children are still those
// exactly as they were, and rebuilds the syntax around them otherwise.
type span struct {
	start, end int // byte offsets of the value; end == 0 for a built node
	elems      []*Node
	members    []Member
}

// Member is one key/value pair of an object.
type Member struct {
	Key    string
	keyRaw string // original key literal, as for Node.raw
	Value  *Node
	// idx is a parsed member's 1-based position among its object's parsed
	// members (0: added since).
	idx int
}

// NewNull returns a JSON null.
func NewNull() *Node { return &Node{kind: KindNull} }

// NewBool returns a JSON boolean.
func NewBool(b bool) *Node {
	if b {
		return &Node{kind: KindBool, text: "true"}
	}
	return &Node{kind: KindBool, text: "false"}
}

// NewInt returns a JSON number for i.
func NewInt(i int) *Node { return &Node{kind: KindNumber, text: fmt.Sprint(i)} }

// NewString returns a JSON string.
func NewString(s string) *Node { return &Node{kind: KindString, text: s} }

// NewArray returns a JSON array holding elems.
func NewArray(elems ...*Node) *Node { return &Node{kind: KindArray, elems: elems} }

// NewObject returns a JSON object holding members in order.
func NewObject(members ...Member) *Node { return &Node{kind: KindObject, members: members} }

// Kind reports the node's JSON type; a nil node reports KindNull.
func (n *Node) Kind() Kind {
	if n == nil {
		return KindNull
	}
	return n.kind
}

// Str returns the decoded string and whether n is a string.
func (n *Node) Str() (string, bool) {
	if n.Kind() != KindString {
		return "", false
	}
	return n.text, true
}

// Number returns the number literal and whether n is a number.
func (n *Node) Number() (json.Number, bool) {
	if n.Kind() != KindNumber {
		return "", false
	}
	return json.Number(n.text), true
}

// Bool returns the boolean and whether n is a boolean.
func (n *Node) Bool() (value, ok bool) {
	if n.Kind() != KindBool {
		return false, false
	}
	return n.text == "true", true
}

// Elems returns the elements of an array (nil for other kinds). The slice is
// the node's own; use SetElems to change its length.
func (n *Node) Elems() []*Node {
	if n.Kind() != KindArray {
		return nil
	}
	return n.elems
}

// SetElems replaces the elements of an array; it does nothing on other kinds.
func (n *Node) SetElems(elems []*Node) {
	if n.Kind() == KindArray {
		n.elems = elems
	}
}

// Append adds elements at the end of an array; it does nothing on other kinds.
func (n *Node) Append(elems ...*Node) {
	if n.Kind() == KindArray {
		n.elems = append(n.elems, elems...)
	}
}

// Members returns the members of an object in order (nil for other kinds).
func (n *Node) Members() []Member {
	if n.Kind() != KindObject {
		return nil
	}
	return n.members
}

// Get returns the value of key in an object, or nil. With duplicate keys the
// last one wins, as in JavaScript's JSON.parse, which is what the hosts use.
func (n *Node) Get(key string) *Node {
	if n.Kind() != KindObject {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].Key == key {
			return n.members[i].Value
		}
	}
	return nil
}

// Set replaces the value of key (its last occurrence) in place, keeping the
// key's position, or appends the key at the end. It does nothing on
// non-objects.
func (n *Node) Set(key string, v *Node) {
	n.Insert(-1, key, v)
}

// Insert is Set with a position for a new key: index i (clamped; negative
// means the end) is used only when the key is not present yet.
func (n *Node) Insert(i int, key string, v *Node) {
	if n.Kind() != KindObject {
		return
	}
	for j := len(n.members) - 1; j >= 0; j-- {
		if n.members[j].Key == key {
			n.members[j].Value = v
			return
		}
	}
	if i < 0 || i > len(n.members) {
		i = len(n.members)
	}
	n.members = append(n.members, Member{})
	copy(n.members[i+1:], n.members[i:])
	n.members[i] = Member{Key: key, Value: v}
}

// Delete removes every occurrence of key from an object and reports whether
// any was present.
func (n *Node) Delete(key string) bool {
	if n.Kind() != KindObject {
		return false
	}
	kept := n.members[:0]
	for _, m := range n.members {
		if m.Key != key {
			kept = append(kept, m)
		}
	}
	found := len(kept) != len(n.members)
	clear(n.members[len(kept):])
	n.members = kept
	return found
}

// DuplicateKey returns the first key that occurs more than once in an object.
func (n *Node) DuplicateKey() (string, bool) {
	seen := make(map[string]bool, len(n.Members()))
	for _, m := range n.Members() {
		if seen[m.Key] {
			return m.Key, true
		}
		seen[m.Key] = true
	}
	return "", false
}

// Equal reports whether a and b are the same JSON value: same kinds, same
// number literals (1e3 and 1000 differ: we preserve literals, so compare
// them), same decoded strings, same members in the same order.
func Equal(a, b *Node) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case KindNull:
		return true
	case KindArray:
		if len(a.elems) != len(b.elems) {
			return false
		}
		for i := range a.elems {
			if !Equal(a.elems[i], b.elems[i]) {
				return false
			}
		}
		return true
	case KindObject:
		if len(a.members) != len(b.members) {
			return false
		}
		for i := range a.members {
			if a.members[i].Key != b.members[i].Key || !Equal(a.members[i].Value, b.members[i].Value) {
				return false
			}
		}
		return true
	}
	return a.text == b.text
}

// SyntaxError is a JSON syntax error at a 1-based line and column (columns
// count characters, as editors do).
type SyntaxError struct {
	Offset int64 // byte offset of the offending byte
	Line   int
	Column int
	Msg    string
	Hint   string // what to fix, when recognisable (comments, trailing commas)
}

func (e *SyntaxError) Error() string {
	s := fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// maxDepth bounds nesting so hostile input can exhaust neither the stack
// nor memory: indented output grows with the square of the depth. Real
// settings files nest a handful of levels.
const maxDepth = 1000

// Parse decodes one JSON document. Invalid JSON yields a *SyntaxError with
// line and column. Duplicate keys are kept (see Node.Get).
func Parse(data []byte) (*Node, error) {
	// Validate the whole input first: hujson accepts comments and trailing
	// commas, which these files must not hold (a JSONC host's comments are
	// blanked before parsing), and encoding/json's full-document scanner
	// gives the offsets and messages the hints are built on.
	if err := json.Unmarshal(data, new(json.RawMessage)); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// Offset counts the offending byte; at end of input there is
			// none, so point just past the last byte.
			off := se.Offset - 1
			if se.Offset >= int64(len(data)) && strings.Contains(se.Error(), "end of JSON input") {
				off = int64(len(data))
			}
			return nil, newSyntaxError(data, off, se.Error())
		}
		return nil, err
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("parse valid JSON: %w", err)
	}
	return fromAST(data, &v, 0)
}

func newSyntaxError(data []byte, off int64, msg string) *SyntaxError {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := 1 + bytes.Count(before, []byte{'\n'})
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	e := &SyntaxError{Offset: off, Line: line, Column: utf8.RuneCount(before[lineStart:]) + 1, Msg: msg}
	rest := data[off:]
	switch {
	case bytes.HasPrefix(rest, []byte("//")) || bytes.HasPrefix(rest, []byte("/*")):
		e.Hint = "JSON does not allow comments; delete the comment"
	case len(rest) > 0 && (rest[0] == '}' || rest[0] == ']') &&
		bytes.HasSuffix(bytes.TrimRight(before, " \t\r\n"), []byte(",")):
		e.Hint = "JSON does not allow a trailing comma; delete the comma before '" + string(rest[0]) + "'"
	case off == 0 && bytes.HasPrefix(rest, []byte("\xef\xbb\xbf")):
		e.Hint = "the file starts with a byte-order mark; save it as UTF-8 without BOM"
	case len(rest) > 0 && rest[0] == '\'':
		e.Hint = "JSON strings and keys need double quotes"
	}
	return e
}

// fromAST makes the Node of a value of hujson's syntax tree, remembering
// where it was in data (see EncodeOver).
func fromAST(data []byte, v *hujson.Value, depth int) (*Node, error) {
	n := &Node{src: span{start: v.StartOffset, end: v.EndOffset}}
	switch t := v.Value.(type) {
	case hujson.Literal:
		switch t.Kind() {
		case 'n':
			n.kind = KindNull
		case 't', 'f':
			n.kind, n.text = KindBool, string(t)
		case '0':
			n.kind, n.text = KindNumber, string(t)
		default:
			n.kind, n.text, n.raw = KindString, t.String(), string(t)
		}
		return n, nil
	case *hujson.Object:
		if depth >= maxDepth {
			return nil, newSyntaxError(data, int64(v.StartOffset), "nesting too deep")
		}
		n.kind, n.members = KindObject, make([]Member, 0, len(t.Members))
		for i := range t.Members {
			m := &t.Members[i]
			c, err := fromAST(data, &m.Value, depth+1)
			if err != nil {
				return nil, err
			}
			name := m.Name.Value.(hujson.Literal)
			n.members = append(n.members, Member{Key: name.String(), keyRaw: string(name), Value: c, idx: i + 1})
		}
		n.src.members = slices.Clone(n.members)
	case *hujson.Array:
		if depth >= maxDepth {
			return nil, newSyntaxError(data, int64(v.StartOffset), "nesting too deep")
		}
		n.kind, n.elems = KindArray, make([]*Node, 0, len(t.Elements))
		for i := range t.Elements {
			c, err := fromAST(data, &t.Elements[i], depth+1)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, c)
		}
		n.src.elems = slices.Clone(n.elems)
	}
	return n, nil
}

// Format controls how a document is written back.
type Format struct {
	Indent       string // one level of indentation; "" means two spaces
	Newline      string // "\n" or "\r\n"; "" means "\n"
	FinalNewline bool   // end the file with a newline
	// OneLine writes everything on one line, separated by "," and ":", or
	// ", " and ": " when Spaced: what EncodeOver adds to a container the
	// user wrote on one line.
	OneLine, Spaced bool
}

var (
	compactFormat = Format{OneLine: true}
	spacedFormat  = Format{OneLine: true, Spaced: true}
)

func (f Format) colon() string {
	if f.OneLine && !f.Spaced {
		return ":"
	}
	return ": "
}

// DefaultFormat is what atreides writes to a new file: two-space indentation
// and a final newline, like JSON.stringify(v, null, 2) plus a newline.
var DefaultFormat = Format{Indent: "  ", Newline: "\n", FinalNewline: true}

// DetectFormat guesses the format of an existing file so that rewriting it
// keeps the user's indentation, line endings and final newline. A file with
// no indented line (compact or empty) gets two spaces.
func DetectFormat(data []byte) Format {
	f := Format{Indent: "  ", Newline: "\n"}
	if bytes.Contains(data, []byte("\r\n")) {
		f.Newline = "\r\n"
	}
	trimmed := bytes.TrimRight(data, " \t")
	f.FinalNewline = len(data) == 0 || bytes.HasSuffix(trimmed, []byte("\n"))
	// The first indented line after an opening bracket is one level deep.
	for _, line := range bytes.Split(data, []byte("\n"))[1:] {
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		rest := bytes.TrimSpace(line)
		if len(ws) > 0 && len(rest) > 0 {
			f.Indent = string(ws)
			break
		}
		if len(rest) > 0 {
			// A non-indented line before any indented one (e.g. "}" or a
			// compact second value): nothing to learn.
			break
		}
	}
	return f
}

// Encode writes n in the layout of JSON.stringify(n, null, indent) /
// json.MarshalIndent: one member or element per line, "key": value, empty
// containers as {} and [].
func (n *Node) Encode(f Format) []byte {
	if f.Indent == "" {
		f.Indent = "  "
	}
	if f.Newline == "" {
		f.Newline = "\n"
	}
	var b bytes.Buffer
	encode(&b, n, f, 0)
	if f.FinalNewline {
		b.WriteString(f.Newline)
	}
	return b.Bytes()
}

func newline(b *bytes.Buffer, f Format, depth int) {
	b.WriteString(f.Newline)
	for range depth {
		b.WriteString(f.Indent)
	}
}

// itemBreak is what precedes item i of a container: its comma, then a
// line of its own, or a space at most on one line.
func itemBreak(b *bytes.Buffer, f Format, depth, i int) {
	if i > 0 {
		b.WriteByte(',')
	}
	switch {
	case !f.OneLine:
		newline(b, f, depth)
	case i > 0 && f.Spaced:
		b.WriteByte(' ')
	}
}

// closeLine is the break before a closing bracket: none on one line.
func closeLine(b *bytes.Buffer, f Format, depth int) {
	if !f.OneLine {
		newline(b, f, depth)
	}
}

func encode(b *bytes.Buffer, n *Node, f Format, depth int) {
	switch n.Kind() {
	case KindNull:
		b.WriteString("null")
	case KindBool, KindNumber:
		b.WriteString(n.text)
	case KindString:
		if n.raw != "" {
			b.WriteString(n.raw)
		} else {
			writeString(b, n.text)
		}
	case KindArray:
		if len(n.elems) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range n.elems {
			itemBreak(b, f, depth+1, i)
			encode(b, e, f, depth+1)
		}
		closeLine(b, f, depth)
		b.WriteByte(']')
	case KindObject:
		if len(n.members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range n.members {
			itemBreak(b, f, depth+1, i)
			if m.keyRaw != "" {
				b.WriteString(m.keyRaw)
			} else {
				writeString(b, m.Key)
			}
			b.WriteString(f.colon())
			encode(b, m.Value, f, depth+1)
		}
		closeLine(b, f, depth)
		b.WriteByte('}')
	}
}

// writeString quotes s the way JSON.stringify does (no HTML escaping, which
// encoding/json would add and users would see as \u003c noise). Invalid
// UTF-8 becomes U+FFFD so the output is always valid.
func writeString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\ufffd`)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}

// path renders a location like hooks.PreToolUse[0].hooks for messages.
func jsonPath(parts ...any) string {
	var sb strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case int:
			fmt.Fprintf(&sb, "[%d]", p)
		default:
			if sb.Len() > 0 {
				sb.WriteByte('.')
			}
			fmt.Fprint(&sb, p)
		}
	}
	return sb.String()
}
