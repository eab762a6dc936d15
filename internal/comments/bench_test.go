package comments

import (
	conf "github.com/atreides-dev/atreides/internal/config"
	"os"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// BenchmarkCheckWrite2000: the check of a 2,000-line Write, real Go code
// (the vendored files, repeated), which the handler runs on the hook's
// path after every write.
func BenchmarkCheckWrite2000(b *testing.B) {
	var src []string
	for _, p := range []string{"testdata/real/go_instantiate.go", "testdata/real/go_comment.go"} {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		src = append(src, strings.Split(string(data), "\n")...)
	}
	lines := make([]string, 0, 2000)
	for len(lines) < 2000 {
		lines = append(lines, src[:min(len(src), 2000-len(lines))]...)
	}
	f := event.FileLines{Path: "big.go", Lines: lines, Whole: true}
	o := FromConfig(conf.Builtin())
	b.ReportAllocs()
	for b.Loop() {
		_ = o.Note(CheckAll([]event.FileLines{f}))
	}
}
