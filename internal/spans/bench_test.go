package spans

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

// BenchmarkSpool is what a hook pays with otel on: build the span, open
// the spool, one write.
func BenchmarkSpool(b *testing.B) {
	dir := filepath.Join(b.TempDir(), ".atreides")
	sp := Spool(dir, func() int64 { return 20 << 20 })
	ev := &event.Event{Kind: event.PreTool, Host: "claude", HostEvent: "PreToolUse", SessionID: "0f5c1c2e-7d7a-4a43-9a55-3f1f6d1f2a11", Tool: event.Tool{Raw: "Bash"}}
	d := decision()
	start := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		if err := sp.AppendLine(New("/home/u/project", ev, d, start, time.Millisecond).Line()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSpan is building the line alone.
func BenchmarkSpan(b *testing.B) {
	ev := &event.Event{Kind: event.PreTool, Host: "claude", HostEvent: "PreToolUse", SessionID: "0f5c1c2e-7d7a-4a43-9a55-3f1f6d1f2a11", Tool: event.Tool{Raw: "Bash"}}
	d := decision()
	start := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		_ = New("/home/u/project", ev, d, start, time.Millisecond).Line()
	}
}
