package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editInputs are texts in every layout users leave settings in.
func editInputs(t *testing.T) map[string]string {
	in := map[string]string{
		"compact":             `{"permissions":{"allow":["Bash(ls)","Read"]},"model":"x"}`,
		"compact spaced":      `{"a": [1, 2], "b": {"c": true}}` + "\n",
		"compact array":       "{\n  \"env\": {\"A\": \"1\"},\n  \"allow\": [\"x\",\"y\"]\n}\n",
		"unusual key order":   "{\n  \"zeta\": 1,\n  \"hooks\": {\n    \"Stop\": []\n  },\n  \"alpha\": {}\n}\n",
		"tabs and crlf":       "{\r\n\t\"a\": {\r\n\t\t\"b\": [\r\n\t\t\t1\r\n\t\t]\r\n\t}\r\n}",
		"comments everywhere": "// head\n{\n  /* a */ \"a\": 1, // after a\n  \"b\": [ /* in */ 2 ] // after b\n  // before close\n}\n// tail\n",
		// Space inside an empty container is not kept once something was
		// added to it (uninstall restores the file from its backup then).
		"empty containers": "{ \"a\": {}, \"b\": []\n}\n",
		"one member":       "{\"only\": null}",
	}
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(stripJSONComments(data)); err == nil {
			in[filepath.Base(f)] = string(data)
		}
	}
	return in
}

// An edit that adds members and elements and one that removes them again
// give back the text byte for byte; the edited text says what the document
// says; an unedited document is its text.
func TestEncodeOverRoundTrip(t *testing.T) {
	add := NewObject(Member{Key: "hooks", Value: NewArray(NewObject(Member{Key: "command", Value: NewString("atreides hook x")}))})
	for name, src := range editInputs(t) {
		t.Run(name, func(t *testing.T) {
			parse := func(s string) *Node {
				t.Helper()
				n, err := Parse(stripJSONComments([]byte(s)))
				if err != nil {
					t.Fatalf("parse %q: %v", s, err)
				}
				return n
			}
			doc := parse(src)
			f := DetectFormat([]byte(src))
			if got := string(doc.EncodeOver([]byte(src), f)); got != src {
				t.Fatalf("unedited: %q", got)
			}
			if doc.Kind() != KindObject {
				return
			}
			// Add at the end of the root, into every object and array
			// one level down, and at the front of the first object.
			doc.Set("atreides", cloneNode(add))
			for _, m := range doc.Members() {
				switch m.Value.Kind() {
				case KindObject:
					m.Value.Set("atreides", cloneNode(add))
					m.Value.Insert(0, "first", NewString("x"))
				case KindArray:
					m.Value.Append(cloneNode(add))
				}
			}
			edited := string(doc.EncodeOver([]byte(src), f))
			back := parse(edited)
			if !Equal(back, doc) {
				t.Fatalf("edited text is another document:\n%s", edited)
			}
			for _, c := range []string{"// head", "/* a */", "// after a", "/* in */", "// before close", "// tail"} {
				if strings.Contains(src, c) && !strings.Contains(edited, c) {
					t.Errorf("lost %s:\n%s", c, edited)
				}
			}
			// Remove what was added, from the edited text.
			back.Delete("atreides")
			for _, m := range back.Members() {
				switch m.Value.Kind() {
				case KindObject:
					m.Value.Delete("atreides")
					m.Value.Delete("first")
				case KindArray:
					els := m.Value.Elems()
					m.Value.SetElems(els[:len(els)-1])
				}
			}
			if got := string(back.EncodeOver([]byte(edited), DetectFormat([]byte(edited)))); got != src {
				t.Errorf("add then remove is not the original\n got: %q\nwant: %q\nedited: %q", got, src, edited)
			}
		})
	}
}

// A child that becomes the first loses its comma, and only its comma:
// the comments around it, commas inside them included, stay.
func TestEncodeOverMovedToFront(t *testing.T) {
	tests := []struct{ src, delete, want string }{
		{"{\n  \"a\": 1,\n  \"b\": 2\n}\n", "a", "{\n  \"b\": 2\n}\n"},
		{`{"a": 1 /* , */ , "b": 2}`, "a", `{ /* , */  "b": 2}`},
		{"{\"a\": 1, // x, y\n  \"b\": 2}", "a", "{ // x, y\n  \"b\": 2}"},
		{"[1 /* , */ , 2]", "", "[ /* , */  2]"},
	}
	for _, tt := range tests {
		doc, err := Parse(stripJSONComments([]byte(tt.src)))
		if err != nil {
			t.Fatal(err)
		}
		if doc.Kind() == KindArray {
			doc.SetElems(doc.Elems()[1:])
		} else {
			doc.Delete(tt.delete)
		}
		if got := string(doc.EncodeOver([]byte(tt.src), DetectFormat([]byte(tt.src)))); got != tt.want {
			t.Errorf("%q without its first child:\n got %q\nwant %q", tt.src, got, tt.want)
		}
	}
}

// Any document, in any layout: unedited, EncodeOver gives back its text;
// with a member added to every object and an element to every array, the
// text it writes says what the edited document says.
func FuzzEncodeOver(f *testing.F) {
	for _, s := range editInputs(&testing.T{}) {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":{"b":[1,{"c":[]}]},"d":[ ]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(stripJSONComments(src))
		if err != nil {
			return
		}
		format := DetectFormat(src)
		if got := doc.EncodeOver(src, format); string(got) != string(src) {
			t.Fatalf("unedited:\n got %q\nwant %q", got, src)
		}
		var grow func(n *Node)
		grow = func(n *Node) {
			for _, m := range n.Members() {
				grow(m.Value)
			}
			for _, e := range n.Elems() {
				grow(e)
			}
			n.Set("atreides", NewArray(NewString("x")))
			n.Append(NewObject(Member{Key: "k", Value: NewInt(1)}))
		}
		grow(doc)
		edited := doc.EncodeOver(src, format)
		back, err := Parse(stripJSONComments(edited))
		if err != nil {
			t.Fatalf("edited text does not parse: %v\n%q", err, edited)
		}
		if !Equal(back, doc) {
			t.Fatalf("edited text is another document:\nsrc %q\nout %q", src, edited)
		}
	})
}
