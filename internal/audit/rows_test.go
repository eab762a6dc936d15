package audit

import (
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

// The text view's rows, read from scanned lines, say what the decoded
// records say: for plain and escaped strings, commands and paths.
func TestRowsAgreeWithRecords(t *testing.T) {
	tr := New(t.TempDir()+"/.atreides", nil)
	at := time.Now().Add(-time.Minute)
	plain := rec(at, "s1", "deny", "git.reset-hard")
	escaped := rec(at.Add(time.Second), `s"2\`, "ask", "fs.x")
	escaped.Command = "printf 'a\tb' && echo \"é\" \\ done"
	paths := rec(at.Add(2*time.Second), "s3", "none", "") // as an older atreides wrote an allowed call
	paths.Command, paths.Paths, paths.Tool, paths.Block = "", []string{"a b.go", `c"d`}, "Edit", true
	paths.Marks = []event.Mark{{Kind: event.MarkToolFailed, Text: "Edit `a b.go`"}, {Kind: event.MarkStrike, Text: `c"d failed 2 times`}}
	appendAll(t, tr, plain, escaped, paths)

	recs, _ := readAll(t, tr, Filter{})
	var rows []Row
	if _, err := tr.ReadRows(Filter{}, func(r *Row) error { rows = append(rows, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(recs) {
		t.Fatalf("%d rows, %d records", len(rows), len(recs))
	}
	for i, r := range recs {
		target := r.Command
		if target == "" {
			target = strings.Join(r.Paths, " ")
		}
		var marks []string
		for _, m := range r.Marks {
			marks = append(marks, m.Kind+": "+m.Text)
		}
		want := Row{Time: r.When(), Host: r.Host, Session: r.Session, HostEvent: r.HostEvent, Verdict: VerdictOf(r.Event, r.Verdict),
			Rule: r.Rule, Tool: r.Tool, Block: r.Block, Target: target, Marks: strings.Join(marks, "; ")}
		if !rows[i].Time.Equal(want.Time) {
			t.Errorf("row %d time %v, want %v", i, rows[i].Time, want.Time)
		}
		rows[i].Time = want.Time
		if rows[i] != want {
			t.Errorf("row %d\n got %+v\nwant %+v", i, rows[i], want)
		}
	}
	line := plain.line()
	if r, ok := RowOf(line[:len(line)-1]); !ok || r.Session != "s1" || r.Target != "cmd s1" {
		t.Errorf("RowOf: %+v %v", r, ok)
	}
	if _, ok := RowOf([]byte(`{"time": "x", `)); ok {
		t.Error("RowOf took a torn line for a record")
	}
}

// A tool call atreides let through is recorded allow; a trail written
// before, which said none, reads as allow too, for the rows and for
// --verdict; an event that was no tool call keeps none.
func TestAllowedCallsAreAllow(t *testing.T) {
	ev := &event.Event{Kind: event.PreTool, Host: "claude", SessionID: "s", Time: time.Now()}
	if r := NewRecord(ev, &event.Decision{}, 0); r.Verdict != "allow" {
		t.Errorf("an allowed call is recorded %q", r.Verdict)
	}
	start := &event.Event{Kind: event.SessionStart, Host: "claude", SessionID: "s", Time: time.Now()}
	if r := NewRecord(start, &event.Decision{}, 0); r.Verdict != "none" {
		t.Errorf("a session start is recorded %q", r.Verdict)
	}
	tr := New(t.TempDir()+"/.atreides", nil)
	at := time.Now().Add(-time.Minute)
	old := rec(at, "old", "none", "")
	lifecycle := rec(at.Add(time.Second), "life", "none", "")
	lifecycle.Event, lifecycle.HostEvent = string(event.SessionStart), "SessionStart"
	appendAll(t, tr, old, NewRecord(ev, &event.Decision{}, 0), lifecycle, rec(at, "d", "deny", "git.x"))
	for verdict, want := range map[string]string{"allow": "old s", "none": "life", "deny": "d"} {
		var got []string
		_, err := tr.ReadRows(Filter{Verdicts: []string{verdict}}, func(r *Row) error {
			got = append(got, r.Session)
			if r.Verdict != verdict {
				t.Errorf("--verdict %s: a row says %q", verdict, r.Verdict)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("--verdict %s: sessions %q, want %q", verdict, got, want)
		}
	}
}
