package usage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// bigTranscript writes a 50 MB Claude Code transcript whose last figure is
// followed by a 60 KB tool result, as after a large Read.
func bigTranscript(b *testing.B) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), "big.jsonl")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	line := claudeAssistant("claude-opus-5-5", 10, 0, 90000, 50, "") + "\n" +
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"` + strings.Repeat("x", 2000) + `"}]}}` + "\n"
	for size := 0; size < 50<<20; size += len(line) {
		f.WriteString(line)
	}
	f.WriteString(claudeAssistant("claude-opus-5-5", 10, 0, 150000, 50, "") + "\n")
	f.WriteString(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"` + strings.Repeat("y", 60<<10) + `"}]}}` + "\n")
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkOf50MB is one hook's read: the cache is emptied each time.
func BenchmarkOf50MB(b *testing.B) {
	ev := &event.Event{Host: "claude", Facts: testHosts["claude"], TranscriptPath: bigTranscript(b)}
	b.ResetTimer()
	for b.Loop() {
		cache.Lock()
		cache.entries = [cacheSize]cached{}
		cache.Unlock()
		if u, ok := Of(ev, 200_000); !ok || u.Used != 150060 {
			b.Fatalf("got %+v, %v", u, ok)
		}
	}
}

// BenchmarkOf50MBCached is a second handler of the same event.
func BenchmarkOf50MBCached(b *testing.B) {
	ev := &event.Event{Host: "claude", Facts: testHosts["claude"], TranscriptPath: bigTranscript(b)}
	Of(ev, 200_000)
	b.ResetTimer()
	for b.Loop() {
		if _, ok := Of(ev, 200_000); !ok {
			b.Fatal("unknown")
		}
	}
}
