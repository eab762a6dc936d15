package claude

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

// BenchmarkPostToolUse5MB decodes a PostToolUse with 5 MB of Bash output
// and encodes a replacement: the adapter's part of a cut.
func BenchmarkPostToolUse5MB(b *testing.B) {
	out, _ := json.Marshal(strings.Repeat("src/pkg/file.go:123: a matching line of a large search\n", 5<<20/56))
	data := postToolUse("Bash", `{"command":"grep -rn x"}`, `{"stdout":`+string(out)+`,"stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`)
	cut := strings.Repeat("x", 15000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		ev, err := Decode(data, "/p", time.Unix(0, 0))
		if err != nil {
			b.Fatal(err)
		}
		if a := Encode(ev, &event.Decision{ReplaceOutput: &cut}); len(a.Stdout) == 0 {
			b.Fatal("no answer")
		}
	}
}
