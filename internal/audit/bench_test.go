package audit

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

// benchTrail writes n realistic records over the last 10 days: mostly
// allowed shell and file calls, one in twenty denied, one in fifty asked,
// with the handler timings a hook records.
func benchTrail(b *testing.B, n int) *Trail {
	b.Helper()
	tr := New(filepath.Join(b.TempDir(), ".atreides"), func() int64 { return 1 << 40 })
	start := time.Now().Add(-10 * 24 * time.Hour)
	step := 10 * 24 * time.Hour / time.Duration(n)
	rules := []string{"git.reset-hard", "fs.rm-recursive", "self.config", "net.curl-pipe-shell", "secrets.env-file"}
	timings := []event.Timing{
		{Handler: "guard", Prepare: 180 * time.Microsecond, Handle: 4 * time.Microsecond},
		{Handler: "governance", Handle: 2 * time.Microsecond},
		{Handler: "phase", Handle: 3 * time.Microsecond},
		{Handler: "strikes", Handle: time.Microsecond},
		{Handler: "record", Handle: 6 * time.Microsecond},
	}
	for i := range n {
		ev := &event.Event{Kind: event.PreTool, Host: "claude", HostEvent: "PreToolUse",
			SessionID: fmt.Sprintf("5f0c2d1e-8a7b-4c3d-9e2f-%012d", i/500), Time: start.Add(time.Duration(i) * step),
			Tool: event.Tool{Raw: "Bash", Command: fmt.Sprintf("go test ./internal/audit/ -run TestRead -count=1 # step %d", i)}}
		if i%3 == 0 {
			ev.Tool = event.Tool{Raw: "Edit", Paths: []string{fmt.Sprintf("/home/dev/src/project/internal/pkg%d/file.go", i%40)}}
		}
		d := &event.Decision{Timings: timings}
		switch {
		case i%20 == 0:
			d.Verdict, d.Rule = event.Deny, rules[i/20%len(rules)]
			d.Reason = "This command discards work that cannot be recovered; it is blocked. Ask the user to run it themselves if it is really meant."
		case i%50 == 1:
			d.Verdict, d.Rule, d.Reason = event.Ask, rules[i%len(rules)], "This needs the user's confirmation."
		}
		if err := tr.Append(NewRecord(ev, d, 900*time.Microsecond)); err != nil {
			b.Fatal(err)
		}
	}
	return tr
}

const benchRecords = 100_000

// BenchmarkRead100k: `atreides log --verdict deny --since 7d --json` over
// 100,000 records (the lines are passed on as stored).
func BenchmarkRead100k(b *testing.B) {
	tr := benchTrail(b, benchRecords)
	f := Filter{Verdicts: []string{"deny"}, Since: time.Now().Add(-7 * 24 * time.Hour)}
	b.ResetTimer()
	for b.Loop() {
		n := 0
		if _, err := tr.Read(f, func([]byte) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		if want := benchRecords / 20 * 7 / 10; n < want-10 || n > want+10 {
			b.Fatalf("read %d records", n)
		}
	}
}

// BenchmarkReadDecode100k: `atreides log --rule self.` over 100,000
// records, each match decoded for the text view.
func BenchmarkReadDecode100k(b *testing.B) {
	tr := benchTrail(b, benchRecords)
	f := Filter{Rule: "self."}
	b.ResetTimer()
	for b.Loop() {
		if _, err := tr.Read(f, func(line []byte) error { _, err := Decode(line); return err }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStats100k: `atreides log --stats` over 100,000 records.
func BenchmarkStats100k(b *testing.B) {
	tr := benchTrail(b, benchRecords)
	b.ResetTimer()
	for b.Loop() {
		st, err := tr.Stats(Filter{}, time.Local)
		if err != nil || st.Records != benchRecords {
			b.Fatal(st, err)
		}
	}
}

// BenchmarkAppend: one record written, as a hook does (the file opened,
// one write, closed).
func BenchmarkAppend(b *testing.B) {
	tr := New(filepath.Join(b.TempDir(), ".atreides"), func() int64 { return 40 << 20 })
	ev := &event.Event{Kind: event.PreTool, Host: "claude", HostEvent: "PreToolUse", SessionID: "5f0c2d1e-8a7b-4c3d-9e2f-000000000001",
		Time: time.Now(), Tool: event.Tool{Raw: "Bash", Command: "go test ./internal/audit/ -run TestRead -count=1"}}
	d := &event.Decision{Verdict: event.Deny, Rule: "git.reset-hard", Reason: "blocked", Timings: []event.Timing{{Handler: "guard", Prepare: time.Millisecond, Handle: time.Microsecond}}}
	b.ReportAllocs()
	for b.Loop() {
		if err := tr.Append(NewRecord(ev, d, time.Millisecond)); err != nil {
			b.Fatal(err)
		}
	}
}
