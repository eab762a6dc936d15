package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/confined/confinedtest"
	"github.com/atreides-dev/atreides/internal/event"
)

func TestWanted(t *testing.T) {
	for _, tc := range []struct {
		kind event.Kind
		d    event.Decision
		want bool
	}{
		{event.PreTool, event.Decision{}, true},
		{event.PreTool, event.Decision{Verdict: event.Allow}, true},
		{event.PermissionRequest, event.Decision{}, true},
		{event.PostTool, event.Decision{}, false},
		{event.PostTool, event.Decision{Context: []event.Entry{{Text: "x"}}}, true}, // context said is accounted for
		{event.PostTool, event.Decision{Marks: []event.Mark{{Kind: event.MarkToolFailed, Text: "Bash `make`"}}}, true},
		{event.Stop, event.Decision{}, false},
		{event.Stop, event.Decision{Block: true}, true},
		{event.UserPrompt, event.Decision{Verdict: event.Deny}, true},
		{event.UserPrompt, event.Decision{Marks: []event.Mark{{Kind: event.MarkPhase, Text: "x"}}}, true},
		// The few lifecycle events of a session, whatever was decided.
		{event.SessionStart, event.Decision{}, true},
		{event.SessionEnd, event.Decision{}, true},
		{event.PreCompact, event.Decision{}, true},
		{event.SubagentStart, event.Decision{}, true},
		{event.SubagentStop, event.Decision{}, true},
		{event.PostCompact, event.Decision{}, false},
		{event.Notification, event.Decision{}, false},
	} {
		if got := Wanted(&event.Event{Kind: tc.kind}, &tc.d); got != tc.want {
			t.Errorf("Wanted(%s, %+v) = %v, want %v", tc.kind, tc.d, got, tc.want)
		}
	}
	// OpenCode's session start on every model request is no start.
	if Wanted(&event.Event{Kind: event.SessionStart, Source: "prompt"}, &event.Decision{}) {
		t.Error("an OpenCode per-request session start was wanted")
	}
}

func TestNewRecord(t *testing.T) {
	at := time.Date(2026, 11, 23, 8, 0, 0, 1500, time.FixedZone("x", 3600))
	ev := &event.Event{
		Kind: event.PreTool, Host: "claude", HostEvent: "PreToolUse", SessionID: "s1", Time: at,
		Tool: event.Tool{Raw: "Bash", Command: "curl -H 'Authorization: Bearer sk-abcdefghijklmnopqrstuvwxyz0123' x\nrm -rf / && echo <ok>"},
	}
	d := &event.Decision{Verdict: event.Deny, Rule: "fs.rm-root", Reason: "no", Timings: []event.Timing{
		{Handler: "guard", Prepare: 80 * time.Microsecond, Handle: 3 * time.Microsecond},
		{Handler: "phase", Handle: 1500 * time.Nanosecond},
	}}
	r := NewRecord(ev, d, 2*time.Millisecond)
	if r.Time != "2026-11-23T07:00:00.000001Z" {
		t.Errorf("time %q, want UTC with microseconds", r.Time)
	}
	if strings.Contains(r.Command, "sk-abcdef") || strings.Contains(r.Command, "\n") {
		t.Errorf("command not sanitized: %q", r.Command)
	}
	if r.Reason != "no" || r.TotalUS != 2000 || r.PrepareUS["guard"] != 80 || r.HandleUS["guard"] != 3 || r.HandleUS["phase"] != 1 || len(r.PrepareUS) != 1 {
		t.Errorf("record %+v", r)
	}
	line := r.line()
	if !strings.HasSuffix(string(line), "}\n") || strings.Count(string(line), "\n") != 1 {
		t.Fatalf("line %q: want one JSON line", line)
	}
	if !strings.Contains(string(line), "&& echo <ok>") {
		t.Errorf("line %s: want the command readable, not HTML-escaped", line)
	}
	for _, key := range []string{"time", "host", "session", "event", "host_event", "tool", "verdict", "rule", "block", "total_us"} {
		if !strings.Contains(string(line), `"`+key+`":`) {
			t.Errorf("line %s lacks %q", line, key)
		}
	}
	// Marks are sanitized and bounded like every free text.
	d.Marks = []event.Mark{{Kind: event.MarkStrike, Text: "Bash `curl -H 'Authorization: Bearer sk-abcdefghijklmnopqrstuvwxyz0123'`\nfailed"}}
	for range maxMarks + 5 {
		d.Marks = append(d.Marks, event.Mark{Kind: event.MarkTodoOpen, Text: strings.Repeat("x", 2*maxMark)})
	}
	r = NewRecord(ev, d, 0)
	if m := r.Marks[0].Text; strings.Contains(m, "sk-abcdef") || strings.Contains(m, "\n") {
		t.Errorf("mark not sanitized: %q", m)
	}
	if len(r.Marks) != maxMarks+1 || r.Marks[maxMarks] != (event.Mark{Kind: MarkMore, Text: "6 more"}) || len(r.Marks[1].Text) > maxMark+20 {
		t.Errorf("marks not bounded: %d, last %+v", len(r.Marks), r.Marks[len(r.Marks)-1])
	}
	// An allow says nothing of a reason a handler may have left.
	if r := NewRecord(ev, &event.Decision{Verdict: event.Allow, Reason: "x"}, 0); r.Reason != "" {
		t.Errorf("allow kept reason %q", r.Reason)
	}
}

// rec is a record of a test trail.
func rec(at time.Time, session, verdict, rule string) *Record {
	return &Record{Time: at.UTC().Format(stampLayout), Host: "claude", Session: session, Event: "pre_tool",
		HostEvent: "PreToolUse", Tool: "Bash", Command: "cmd " + session, Verdict: verdict, Rule: rule}
}

func appendAll(t testing.TB, tr *Trail, rs ...*Record) {
	t.Helper()
	for _, r := range rs {
		if err := tr.Append(r); err != nil {
			t.Fatal(err)
		}
	}
}

func readAll(t testing.TB, tr *Trail, f Filter) ([]Record, Result) {
	t.Helper()
	var got []Record
	res, err := tr.Read(f, func(line []byte) error {
		r, err := Decode(line)
		got = append(got, r)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, res
}

func sessions(rs []Record) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.Session)
	}
	return strings.Join(s, ",")
}

func TestReadFilters(t *testing.T) {
	tr := New(filepath.Join(t.TempDir(), ".atreides"), nil)
	now := time.Now()
	gem := rec(now.Add(-time.Hour), "e", "allow", "")
	gem.Host = "gemini"
	stop := rec(now.Add(-80*time.Minute), "d", "none", "")
	stop.Event, stop.Block = "stop", true
	appendAll(t, tr,
		rec(now.Add(-3*time.Hour), "a", "deny", "git.reset-hard"),
		rec(now.Add(-2*time.Hour), "b", "ask", "self.config"),
		rec(now.Add(-90*time.Minute), "c", "deny", "self.trace"),
		stop,
		gem,
	)
	for _, tc := range []struct {
		name string
		f    Filter
		want string
	}{
		{"all", Filter{}, "a,b,c,d,e"},
		{"since", Filter{Since: now.Add(-2 * time.Hour)}, "b,c,d,e"},
		{"session", Filter{Session: "c"}, "c"},
		{"verdict", Filter{Verdicts: []string{"deny"}}, "a,c"},
		{"verdicts", Filter{Verdicts: []string{"deny", "ask"}}, "a,b,c"},
		{"rule exact", Filter{Rule: "self.config"}, "b"},
		{"rule exact is not a prefix", Filter{Rule: "self"}, ""},
		{"rule group", Filter{Rule: "self."}, "b,c"},
		{"rule star", Filter{Rule: "git.*"}, "a"},
		{"host", Filter{Host: "gemini"}, "e"},
		{"block", Filter{Verdicts: []string{"block"}}, "d"},
		{"together", Filter{Since: now.Add(-2 * time.Hour), Verdicts: []string{"deny"}, Rule: "self."}, "c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := readAll(t, tr, tc.f)
			if s := sessions(got); s != tc.want {
				t.Errorf("read %s, want %s", s, tc.want)
			}
		})
	}
}

func TestNoTrailReadsNothing(t *testing.T) {
	tr := New(filepath.Join(t.TempDir(), ".atreides"), nil)
	if got, _ := readAll(t, tr, Filter{}); len(got) != 0 {
		t.Fatalf("read %v from nothing", got)
	}
	st, err := tr.Stats(Filter{}, time.UTC)
	if err != nil || st.Records != 0 || st.Rules == nil || st.Days == nil {
		t.Fatalf("stats %+v, %v: want zero records and empty (not null) lists", st, err)
	}
}

// A line that is not a record is skipped and counted; a last line without
// its newline is a write in progress, skipped without being called damage.
func TestDamagedAndTornLines(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	tr := New(dir, nil)
	now := time.Now()
	appendAll(t, tr, rec(now, "a", "deny", "r"))
	f, err := os.OpenFile(tr.Path(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("not json\n{\"time\":\"x\",\"rule\":\"r\",\"bad\":\"\\q\"}\n")
	f.Close()
	appendAll(t, tr, rec(now, "b", "deny", "r"))
	f, _ = os.OpenFile(tr.Path(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"time":"` + now.UTC().Format(stampLayout) + `","session":"torn`)
	f.Close()
	got, res := readAll(t, tr, Filter{})
	if sessions(got) != "a,b" || res.Damaged != 2 {
		t.Fatalf("read %s, damaged %d; want a,b and 2", sessions(got), res.Damaged)
	}
}

// TestScanAgreesWithDecoding: the scan filters rely on reads the same
// values a full decode does, whatever the strings hold and whatever
// nested objects carry keys of the same names.
func TestScanAgreesWithDecoding(t *testing.T) {
	for _, line := range []string{
		`{"time":"t","host":"h","session":"s\"x","verdict":"deny","rule":"r","block":true}`,
		`{ "prepare_us" : {"rule":"nested","verdict":"allow"} , "rule" : "a\\" , "verdict":"ask","block":false}`,
		`{"paths":["\"rule\":\"x\"",{"a":[1,2,{"rule":"y"}]}],"rule":"\u0073elf.x","session":"\\\\"}`,
		`{"command":"echo \"}\" ]","rule":"ok","host":"h"}`,
		`{}`,
	} {
		var v fields
		if !scan([]byte(line), &v) {
			t.Errorf("scan refused %s", line)
			continue
		}
		var m struct{ Time, Host, Session, Verdict, Rule string }
		var b struct{ Block bool }
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		json.Unmarshal([]byte(line), &b)
		got := [5]string{str(v.time), str(v.host), str(v.session), str(v.verdict), str(v.rule)}
		want := [5]string{m.Time, m.Host, m.Session, m.Verdict, m.Rule}
		if got != want || v.block != b.Block {
			t.Errorf("scan %s = %q %v, decode = %q %v", line, got, v.block, want, b.Block)
		}
	}
	for _, bad := range []string{``, `[]`, `{"a":1`, `{"a" 1}`, `{"a":"x}`, `{"a":1}x`, `{"a":{"b":1}`} {
		if scan([]byte(bad), new(fields)) {
			t.Errorf("scan accepted %q", bad)
		}
	}
}

func FuzzScan(f *testing.F) {
	f.Add("s", "r", "deny", `{"rule":"x"}`)
	f.Fuzz(func(t *testing.T, session, rule, verdict, nested string) {
		r := &Record{Session: session, Rule: rule, Verdict: verdict, Command: nested, Paths: []string{nested}}
		line := r.line()
		var v fields
		if !scan(line[:len(line)-1], &v) {
			t.Fatalf("scan refused %s", line)
		}
		d, _ := Decode(line)
		if str(v.session) != d.Session || str(v.rule) != d.Rule || str(v.verdict) != d.Verdict {
			t.Fatalf("scan of %s = %q %q %q, decode = %q %q %q", line, v.session, v.rule, v.verdict, d.Session, d.Rule, d.Verdict)
		}
	})
}

// encodingJSON is what encoding/json writes for r, HTML escaping off.
func encodingJSON(t *testing.T, r *Record) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestLineIsJSON: the hand-written line is byte for byte what
// encoding/json writes, on every field and on the strings that need
// escaping.
func TestLineIsJSON(t *testing.T) {
	tricky := "q\"b\\ <&> \x00\x01\x1f\b\f\n\r\t é \u2028\u2029 \xff\xfe end"
	for _, r := range []*Record{
		{},
		{Time: "t", Host: "h", Session: tricky, Event: "e", HostEvent: "E", Agent: "a", Tool: "Bash", Call: tricky, Prompt: tricky, Outcome: "ok", Command: tricky,
			Paths: []string{"a", tricky}, Verdict: "deny", Rule: "r", Reason: tricky, Block: true, BlockReason: "b", TotalUS: 12,
			PrepareUS: map[string]int64{"guard": 3}, HandleUS: map[string]int64{"z": 1, "guard": 2, "a\"b": -1},
			Marks: []event.Mark{{Kind: "phase", Text: tricky}, {Kind: tricky, Text: ""}}, Machine: tricky, Checkout: "/home/a b"},
	} {
		if got, want := string(r.line()), encodingJSON(t, r); got != want {
			t.Errorf("line\n%s\nencoding/json\n%s", got, want)
		}
	}
}

func FuzzLine(f *testing.F) {
	f.Add("a\u2028\"\\\x00", "git.reset-hard")
	f.Fuzz(func(t *testing.T, s, k string) {
		r := &Record{Session: s, Command: s, Paths: []string{s, k}, Rule: k, HandleUS: map[string]int64{k: 1, s: 2}, Marks: []event.Mark{{Kind: k, Text: s}}}
		if got, want := string(r.line()), encodingJSON(t, r); got != want {
			t.Fatalf("line\n%s\nencoding/json\n%s", got, want)
		}
	})
}

func TestRefusesALink(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("keep=%v", keep), func(t *testing.T) {
			root, outside := t.TempDir(), confinedtest.Outside(t)
			dir := filepath.Join(root, ".atreides")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(dir, auditName+rotatedSuffix)); err != nil {
				t.Fatal(err)
			}
			tr := newTrail(dir, nil, keep)
			if err := tr.Append(rec(time.Now(), "a", "deny", "r")); !errors.Is(err, confined.ErrRefused) {
				t.Fatalf("Append = %v, want a refusal", err)
			}
			if _, err := tr.Read(Filter{}, func([]byte) error { return nil }); !errors.Is(err, confined.ErrRefused) {
				t.Fatalf("Read = %v, want a refusal", err)
			}
			if b, _ := os.ReadFile(outside); string(b) != confinedtest.UserText {
				t.Fatalf("the outside file was written: %q", b)
			}
		})
	}
}

// newTrail is New, kept open between appends when keep is set.
func newTrail(dir string, maxBytes func() int64, keep bool) *Trail {
	tr := New(dir, maxBytes)
	if keep {
		tr.Keep()
	}
	return tr
}

// A kept trail writes where its name leads at each append: after another
// process rotated the file, after the file was removed, and never through
// a link put in its place; while nothing changed it writes through the
// file it opened.
func TestKeptFollowsTheName(t *testing.T) {
	root, outside := t.TempDir(), confinedtest.Outside(t)
	dir := filepath.Join(root, ".atreides")
	tr := New(dir, nil).Keep()
	other := New(dir, nil) // another process's
	current := filepath.Join(dir, auditName+rotatedSuffix)
	appendAll(t, tr, rec(time.Now(), "a", "deny", "r"))
	held := tr.kept
	appendAll(t, tr, rec(time.Now(), "b", "deny", "r"))
	if tr.kept != held {
		t.Fatal("the trail opened its file again although nothing changed")
	}
	rotateForTest(t, other)
	appendAll(t, tr, rec(time.Now(), "c", "deny", "r"))
	if segs := segmentsOf(t, dir); len(segs) != 1 {
		t.Fatalf("segments %v, want the one rotated", segs)
	}
	if got, _ := readAll(t, tr, Filter{}); sessions(got) != "a,b,c" {
		t.Fatalf("trail holds %q, want a,b,c", sessions(got))
	}
	if b, _ := os.ReadFile(current); !strings.Contains(string(b), `"c"`) || strings.Contains(string(b), `"b"`) {
		t.Fatalf("after the rotation the current file holds %q, want c alone", b)
	}
	if err := os.Remove(current); err != nil {
		t.Fatal(err)
	}
	appendAll(t, tr, rec(time.Now(), "d", "deny", "r"))
	if b, _ := os.ReadFile(current); !strings.Contains(string(b), `"d"`) {
		t.Fatalf("after its removal the current file holds %q, want d", b)
	}
	if err := os.Remove(current); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, current); err != nil {
		t.Fatal(err)
	}
	if err := tr.Append(rec(time.Now(), "e", "deny", "r")); !errors.Is(err, confined.ErrRefused) {
		t.Fatalf("Append through a link = %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != confinedtest.UserText {
		t.Fatalf("the outside file was written: %q", b)
	}
}

// segmentsOf lists the trail's files.
func segmentsOf(t *testing.T, dir string) []string {
	t.Helper()
	d, err := confined.OpenDir(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	names, err := New(dir, nil).rotated(d)
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// Rotation keeps at most Segments files, about the configured size in
// all, and what it keeps are the newest records, in order, none twice.
func TestRotationKeepsTheNewest(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("keep=%v", keep), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), ".atreides")
			const limit = 5 * checkEvery // a segment is one check stride
			tr := newTrail(dir, func() int64 { return limit }, keep)
			now := time.Now()
			const n = 3000 // about 7 times the limit
			for i := range n {
				appendAll(t, tr, rec(now, fmt.Sprint(i), "deny", "r"))
			}
			if segs := segmentsOf(t, dir); len(segs) != Segments-1 {
				t.Fatalf("rotated segments %v, want %d", segs, Segments-1)
			}
			got, _ := readAll(t, tr, Filter{})
			var size int64
			for _, n := range append(segmentsOf(t, dir), auditName+rotatedSuffix) {
				fi, err := os.Stat(filepath.Join(dir, n))
				if err != nil {
					t.Fatal(err)
				}
				size += fi.Size()
				if fi.Mode().Perm()&0o077 != 0 {
					t.Errorf("%s: mode %v: the trail (commands, the prompts' first words) is readable by others", n, fi.Mode().Perm())
				}
			}
			if size > limit+Segments*checkEvery || size < limit*(Segments-2)/Segments {
				t.Errorf("trail holds %d bytes for a limit of %d", size, limit)
			}
			if len(got) == 0 || got[len(got)-1].Session != fmt.Sprint(n-1) {
				t.Fatalf("the newest record is missing")
			}
			first := n - len(got)
			for i, r := range got {
				if r.Session != fmt.Sprint(first+i) {
					t.Fatalf("record %d is %s, want %d: the trail kept a contiguous run of the newest", i, r.Session, first+i)
				}
			}
		})
	}
}

// Concurrent writers rotating the same trail (some through one kept
// file) lose nothing but what the limit drops, and duplicate nothing: each writer's records that remain
// are a contiguous run of its newest (none, for a writer that finished
// long before the others).
func TestConcurrentRotation(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	limit := func() int64 { return 5 * checkEvery }
	tr := New(dir, limit)
	// Half the writers share a server's trail, which keeps its file open;
	// the others are processes of their own.
	kept := New(dir, limit).Keep()
	const writers, each = 4, 1500
	var wg sync.WaitGroup
	for w := range writers {
		wt := New(dir, limit)
		if w%2 == 0 {
			wt = kept
		}
		wg.Go(func() {
			for i := range each {
				r := rec(time.Now(), fmt.Sprintf("%d-%d", w, i), "deny", "r")
				if err := wt.Append(r); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	got, res := readAll(t, tr, Filter{})
	if res.Damaged != 0 {
		t.Fatalf("%d damaged lines", res.Damaged)
	}
	seen := map[string]bool{}
	per := make([][]int, writers)
	for _, r := range got {
		if seen[r.Session] {
			t.Fatalf("record %s read twice", r.Session)
		}
		seen[r.Session] = true
		var w, i int
		fmt.Sscanf(r.Session, "%d-%d", &w, &i)
		per[w] = append(per[w], i)
	}
	for w, is := range per {
		slices.Sort(is)
		if len(is) > 0 && is[len(is)-1] != each-1 {
			t.Fatalf("writer %d: its last record is missing", w)
		}
		for k := 1; k < len(is); k++ {
			if is[k] != is[k-1]+1 {
				t.Fatalf("writer %d: records %d to %d missing", w, is[k-1]+1, is[k]-1)
			}
		}
	}
}

func TestFollow(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	tr := New(dir, func() int64 { return 5 * checkEvery })
	now := time.Now()
	appendAll(t, tr, rec(now.Add(-time.Hour), "old", "deny", "r"), rec(now, "recent", "allow", ""))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 10000)
	done := make(chan error)
	go func() {
		done <- tr.Follow(ctx, Filter{Since: now.Add(-time.Minute), Verdicts: []string{"deny", "allow"}}, 5*time.Millisecond, nil, func(line []byte) error {
			r, err := Decode(line)
			got <- r.Session
			return err
		})
	}()
	expect := func(want string) {
		t.Helper()
		select {
		case s := <-got:
			if s != want {
				t.Fatalf("followed %s, want %s", s, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no %s followed", want)
		}
	}
	expect("recent")
	appendAll(t, tr, rec(time.Now(), "ask", "ask", "x"), rec(time.Now(), "new", "deny", "r"))
	expect("new")
	// Enough to rotate several times: each record is seen once, in order.
	for i := range 1000 {
		appendAll(t, tr, rec(time.Now(), fmt.Sprint(i), "deny", "r"))
	}
	for i := range 1000 {
		expect(fmt.Sprint(i))
	}
	if len(segmentsOf(t, dir)) == 0 {
		t.Fatal("the test did not rotate")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the follower did not end within a minute of its cancel")
	}
}

func TestStats(t *testing.T) {
	tr := New(filepath.Join(t.TempDir(), ".atreides"), nil)
	day1 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	day2 := day1.Add(24 * time.Hour)
	stop := rec(day2, "s", "none", "")
	stop.Event, stop.Block = "stop", true
	appendAll(t, tr,
		rec(day1, "s", "deny", "git.reset-hard"),
		rec(day1, "s", "allow", ""),
		rec(day2, "s", "deny", "git.reset-hard"),
		rec(day2, "s", "ask", "self.config"),
		rec(day2, "s", "deny", "self.config"),
		stop,
	)
	st, err := tr.Stats(Filter{}, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(st)
	want := `{"records":6,"first":"2026-11-22T10:00:00.000000Z","last":"2026-11-23T10:00:00.000000Z","damaged":0,` +
		`"rules":[{"rule":"git.reset-hard","stopped":2,"deny":2,"ask":0,"block":0},{"rule":"self.config","stopped":1,"deny":1,"ask":1,"block":0},{"rule":"","stopped":1,"deny":0,"ask":0,"block":1}],` +
		`"days":[{"day":"2026-11-22","records":2,"stopped":1,"deny":1,"ask":0,"block":0},{"day":"2026-11-23","records":4,"stopped":3,"deny":2,"ask":1,"block":1}]}`
	if string(got) != want {
		t.Errorf("stats\n%s\nwant\n%s", got, want)
	}
	// Days are the reader's: 10:00 UTC is the next day at UTC+14.
	st, _ = tr.Stats(Filter{Rule: "git."}, time.FixedZone("kiribati", 14*3600))
	if len(st.Days) != 2 || st.Days[0].Day != "2026-11-23" || st.Records != 2 {
		t.Errorf("stats at UTC+14: %+v", st)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	loc := time.FixedZone("x", -5*3600)
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"2h", now.Add(-2 * time.Hour)},
		{"1h30m", now.Add(-90 * time.Minute)},
		{"7d", now.Add(-7 * 24 * time.Hour)},
		{"2w", now.Add(-14 * 24 * time.Hour)},
		{"2026-11-20", time.Date(2026, 11, 20, 0, 0, 0, 0, loc)},
		{"2026-11-20T08:00:00Z", time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)},
	} {
		got, err := ParseSince(tc.in, now, loc)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "yesterday", "-2h", "2x", "d", "-1d"} {
		if _, err := ParseSince(bad, now, loc); err == nil {
			t.Errorf("ParseSince(%q) accepted", bad)
		}
	}
}

// Decode reads one stored record.
func Decode(line []byte) (Record, error) {
	var r Record
	err := json.Unmarshal(line, &r)
	return r, err
}

// When is the record's time; zero if it cannot be read.
func (r *Record) When() time.Time {
	t, _ := time.Parse(time.RFC3339Nano, r.Time)
	return t
}

// TestFollowAfterGap is the race CI once lost a segment to: the follower
// looks while a rotation has left no current file, and before its next
// look the next file fills and is rotated too. The segments after the
// file it read last are read before the new current file, once each.
func TestFollowAfterGap(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	tr := New(dir, nil)
	now := time.Now()
	appendAll(t, tr, rec(now, "a1", "deny", "r"))
	a := openCurrentForTest(t, tr)
	rotateForTest(t, tr)
	var got []string
	fn := func(line []byte, _ *fields) error {
		r, err := Decode(line)
		got = append(got, r.Session)
		return err
	}
	var res Result
	f := Filter{}
	prev := a
	if c, err := tr.next(&prev, &f, &res, fn); err != nil || c != nil || len(got) != 0 {
		t.Fatalf("with no current file: %v, %v, read %v", c, err, got)
	}
	appendAll(t, tr, rec(now, "b1", "deny", "r"), rec(now, "b2", "deny", "r"))
	rotateForTest(t, tr)
	appendAll(t, tr, rec(now, "c1", "deny", "r"))
	c, err := tr.next(&prev, &f, &res, fn)
	if err != nil || c == nil {
		t.Fatalf("next = %v, %v", c, err)
	}
	defer c.Close()
	defer prev.Close()
	if !slices.Equal(got, []string{"b1", "b2"}) {
		t.Fatalf("read %v before the new current file, want [b1 b2]", got)
	}
	// prev moved to the segment read: a further look reads it no more.
	got = nil
	if _, last, err := tr.after(prev, &f, &res, fn); err != nil || last != nil || len(got) != 0 {
		t.Errorf("a second look read %v again (last %v, %v)", got, last, err)
	}
}

func openCurrentForTest(t *testing.T, tr *Trail) *os.File {
	t.Helper()
	f, err := tr.openCurrent(os.O_RDONLY, 0)
	if err != nil || f == nil {
		t.Fatalf("open current: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func rotateForTest(t *testing.T, tr *Trail) {
	t.Helper()
	f := openCurrentForTest(t, tr)
	if err := tr.rotate(f); err != nil {
		t.Fatal(err)
	}
}

// TestPromptAndCall: a prompt's record keeps its first words on one line,
// bounded, and a tool event's record its tool-use id; prompts go into the
// trail (the roots of the trace view).
func TestPromptAndCall(t *testing.T) {
	long := "Fix   the\nfailing tests " + strings.Repeat("word ", 400)
	r := NewRecord(&event.Event{Kind: event.UserPrompt, Prompt: long}, &event.Decision{}, 0)
	if !strings.HasPrefix(r.Prompt, "Fix the failing tests word") || strings.Contains(r.Prompt, "\n") || len(r.Prompt) > maxPrompt+8 {
		t.Errorf("prompt excerpt %q (%d bytes)", r.Prompt, len(r.Prompt))
	}
	if !Wanted(&event.Event{Kind: event.UserPrompt}, &event.Decision{}) {
		t.Error("a prompt is not recorded")
	}
	r = NewRecord(&event.Event{Kind: event.PreTool, ToolUseID: "toolu_1"}, &event.Decision{}, 0)
	if r.Call != "toolu_1" || r.Prompt != "" {
		t.Errorf("call %q prompt %q", r.Call, r.Prompt)
	}
}

// TestSharedTrailKeepsNoPrompt: a team's shared trail records the prompt
// event but not what the person typed.
func TestSharedTrailKeepsNoPrompt(t *testing.T) {
	ev := &event.Event{Kind: event.UserPrompt, Prompt: "rename the billing module"}
	if line := string(Line(ev, &event.Decision{}, 0, Origin{})); !strings.Contains(line, `"prompt":"rename the billing module"`) {
		t.Errorf("a local record lost the prompt: %s", line)
	}
	if line := string(Line(ev, &event.Decision{}, 0, Origin{Machine: "m", Checkout: "/c"})); strings.Contains(line, "billing") || !strings.Contains(line, `"event":"user_prompt"`) {
		t.Errorf("a shared record: %s", line)
	}
}

// TestPromptSecretAtCut: a secret that straddles the excerpt's first cut
// (whitespace collapses, so it can land in the kept words) is not kept in
// part, unmasked.
func TestPromptSecretAtCut(t *testing.T) {
	for _, secret := range []string{"ghp_" + strings.Repeat("b", 36), "AKIAIOSFODNN7EXAMPLE"} {
		for pad := 4*maxPrompt - 30; pad < 4*maxPrompt; pad += 3 {
			p := "x" + strings.Repeat(" ", pad) + secret + " tail"
			got := NewRecord(&event.Event{Kind: event.UserPrompt, Prompt: p}, &event.Decision{}, 0).Prompt
			if strings.Contains(got, secret[:8]) && !strings.Contains(got, "****") {
				t.Errorf("pad %d: excerpt %q keeps part of the secret", pad, got)
			}
		}
	}
}
