package top

import (
	"fmt"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/event"
)

// BenchmarkRecentRows: what a reload costs in the trail's read, on a
// trail of 50,000 decisions (go test -bench RecentRows ./internal/top).
func BenchmarkRecentRows(b *testing.B) {
	dir := b.TempDir()
	tr := audit.New(dir, nil)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range 50000 {
		ev := &event.Event{Kind: event.PreTool, Host: "claude", SessionID: fmt.Sprintf("s-%d", i%7), HostEvent: "PreToolUse", Time: t0.Add(time.Duration(i) * time.Second)}
		ev.Tool.Raw, ev.Tool.Command = "Bash", fmt.Sprintf("go test ./pkg/%d/...", i)
		if err := tr.Append(audit.NewRecord(ev, &event.Decision{Verdict: event.Allow}, time.Millisecond)); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		if rows, err := recentRows(tr, maxDecisions); err != nil || len(rows) != maxDecisions {
			b.Fatalf("%d rows, %v", len(rows), err)
		}
	}
}
