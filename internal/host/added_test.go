package host

import (
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// added lists the lines of fs marked new, as path: line.
func added(fs []event.FileLines) []string {
	var out []string
	for _, f := range fs {
		for i, l := range f.Lines {
			if f.IsNew(i) {
				out = append(out, f.Path+": "+l)
			}
		}
	}
	return out
}

func TestWrittenAndReplaced(t *testing.T) {
	tests := []struct {
		name string
		f    event.FileLines
		want []string
	}{
		{"new file", Written("a.go", "a\nb\n", ""), []string{"a.go: a", "a.go: b"}},
		{"over an original: only what it did not hold, repeats counted", Written("a.go", "x\ny\nx\nz\n", "x\ny\n"), []string{"a.go: x", "a.go: z"}},
		{"CRLF", Written("a.go", "a\r\nb\r\n", "a\n"), []string{"a.go: b"}},
		{"edit", Replaced("a.go", "f()\n", "// note\nf()\ng()"), []string{"a.go: // note", "a.go: g()"}},
		{"edit that only removes", Replaced("a.go", "f()\ng()", "f()"), nil},
	}
	for _, tt := range tests {
		if got := added([]event.FileLines{tt.f}); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	if f := Written("a.go", "a\n", ""); !f.Whole {
		t.Error("a written file is not whole")
	}
}

func TestPatchAdded(t *testing.T) {
	patch := `*** Begin Patch
*** Add File: new.py
+# added
+x = 1
*** Update File: old.go
@@ func f()
 	a()
-	b()
+	// now uses c
+	c()
*** Update File: gone.go
*** Move to: moved.go
@@
-x
*** Delete File: dead.go
*** Update File: ren.go
*** Move to: renamed.go
@@
+y
*** End Patch
`
	fs := PatchAdded(patch)
	want := []string{"new.py: # added", "new.py: x = 1", "old.go: \t// now uses c", "old.go: \tc()", "renamed.go: y"}
	if got := added(fs); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// The context line is kept, unmarked, so a lexer sees it.
	if fs[1].Lines[0] != "\ta()" || fs[1].IsNew(0) {
		t.Errorf("context of old.go: %q %v", fs[1].Lines, fs[1].New)
	}
	if !fs[0].Whole || fs[1].Whole {
		t.Error("an added file is whole, an update is not")
	}
}
