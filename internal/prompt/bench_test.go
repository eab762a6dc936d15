package prompt

import (
	"strings"
	"testing"
)

// benchPrompt is a long, realistic prompt: prose, a path, a URL, inline
// code and a pasted stack trace in a fence.
var benchPrompt = strings.Repeat("The export in internal/report/csv.go drops the last row when `flush` is skipped; see https://example.com/issue/42. ", 8) +
	"\n\n```\npanic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.export(...)\n\t/src/report/csv.go:88\n```\n\nulw: why does it fail? fix it and add a regression test.\n"

// BenchmarkPrompt is what a user prompt costs the keyword handler and the
// phase tracker together: one prose pass, a keyword search, a class.
func BenchmarkPrompt(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		w := Prose(benchPrompt)
		if _, ok := Find(w, []string{"ultrawork", "ulw"}); !ok {
			b.Fatal("no keyword")
		}
		if Classify(w) != Bugfix {
			b.Fatal("wrong class")
		}
	}
}
