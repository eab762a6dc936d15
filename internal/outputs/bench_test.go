package outputs

import (
	"github.com/atreides-dev/atreides/internal/config"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// BenchmarkReplacement5MB is the handler's hot path on a 5 MB output: the
// cut, the saved copy and the pruning of older copies.
func BenchmarkReplacement5MB(b *testing.B) {
	out := strings.Repeat("src/pkg/file.go:123: a matching line of a large search\n", 5<<20/56)
	root := b.TempDir()
	o := FromConfig(config.Builtin())
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		if text, err := replacement(postTool(root, event.Search, out), o); err != nil || text == "" {
			b.Fatal(err)
		}
	}
}

// BenchmarkSmallOutput is what every other PostTool event pays.
func BenchmarkSmallOutput(b *testing.B) {
	root := b.TempDir()
	o := FromConfig(config.Builtin())
	ev := postTool(root, event.Shell, "ok\n")
	for b.Loop() {
		if text, _ := replacement(ev, o); text != "" {
			b.Fatal("cut")
		}
	}
}

// BenchmarkHostFile5MB is the same cut made from a host's own saved file
// (Claude Code's persistedOutputPath), as a 5 MB grep through Claude
// Code's Bash arrives.
func BenchmarkHostFile5MB(b *testing.B) {
	out := strings.Repeat("src/pkg/file.go:123: a matching line of a large search\n", 5<<20/56)
	file := filepath.Join(b.TempDir(), "tool-result.txt")
	if err := os.WriteFile(file, []byte(out), 0o600); err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	o := FromConfig(config.Builtin())
	ev := postTool(root, event.Shell, out[:30000])
	ev.OutputFile = file
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		if text, err := replacement(ev, o); err != nil || text == "" {
			b.Fatal(err)
		}
	}
}
