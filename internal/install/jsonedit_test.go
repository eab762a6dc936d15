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

func TestDropComma(t *testing.T) {
	for in, want := range map[string]string{
		",\n  ":           "\n  ",
		" /* , */ ,\n":    " /* , */ \n",
		" // x, y\n  ,  ": " // x, y\n    ",
		"\n  ":            "\n  ",
	} {
		if got := dropComma(in); got != want {
			t.Errorf("dropComma(%q) = %q, want %q", in, got, want)
		}
	}
}
