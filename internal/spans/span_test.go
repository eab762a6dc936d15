package spans

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)

func decision() *event.Decision {
	return &event.Decision{Verdict: event.Deny, Rule: "git.reset-hard", Block: true,
		Timings: []event.Timing{{Handler: "guard", Prepare: 3 * time.Microsecond, Handle: 40 * time.Microsecond}, {Handler: "session", Handle: 7 * time.Microsecond}}}
}

func TestLinks(t *testing.T) {
	main := &event.Event{Kind: event.PreTool, Host: "claude", HostEvent: "PreToolUse", SessionID: "s1", Tool: event.Tool{Raw: "Bash"}}
	sub := &event.Event{Kind: event.PreTool, Host: "claude", HostEvent: "PreToolUse", SessionID: "s1", AgentID: "a7", AgentType: "explore", Tool: event.Tool{Raw: "Read"}}
	end := &event.Event{Kind: event.SessionEnd, Host: "claude", SessionID: "s1"}
	stop := &event.Event{Kind: event.SubagentStop, Host: "claude", SessionID: "s1", AgentID: "a7"}
	other := &event.Event{Kind: event.PreTool, Host: "claude", SessionID: "s2"}
	d := &event.Decision{}
	m, s, e, st := New("/p", main, d, t0, time.Millisecond), New("/p", sub, d, t0, 0), New("/p", end, d, t0, 0), New("/p", stop, d, t0, 0)
	if m.Trace != s.Trace || m.Trace != e.Trace || m.Trace != TraceID("/p", "s1") || len(m.Trace) != 32 {
		t.Fatalf("one session, traces %s %s %s", m.Trace, s.Trace, e.Trace)
	}
	if o := New("/p", other, d, t0, 0); o.Trace == m.Trace {
		t.Fatal("two sessions share a trace")
	}
	if o := New("/q", main, d, t0, 0); o.Trace == m.Trace {
		t.Fatal("two projects share a trace")
	}
	if m.Parent != m.Root || m.Root != RootID(m.Trace) || m.Scope != ScopeSession || m.Closes {
		t.Fatalf("main span %+v: want the root as parent", m)
	}
	if s.Parent != AgentSpanID(m.Trace, "a7") || s.Root != m.Root || s.Scope != ScopeSubagent || s.Parent == s.Root {
		t.Fatalf("subagent span %+v: want the delegation as parent", s)
	}
	if !e.Closes || e.Scope != ScopeSession || !st.Closes || st.Scope != ScopeSubagent || st.Parent != s.Parent {
		t.Fatalf("closing spans %+v %+v", e, st)
	}
	if m.ID == s.ID || len(m.ID) != 16 || m.ID == "0000000000000000" {
		t.Fatalf("span ids %s %s", m.ID, s.ID)
	}
	if m.End-m.Start != int64(time.Millisecond) || m.Start != t0.UnixNano() {
		t.Fatalf("times %d..%d", m.Start, m.End)
	}
}

func TestAttributesAndSanitizing(t *testing.T) {
	ev := &event.Event{Kind: event.PreTool, Host: "claude", HostEvent: "PreToolUse", SessionID: "s1",
		Tool:   event.Tool{Raw: "Bash\x1b[2J", Command: "curl -H 'Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789' x", Paths: []string{"/secret/file"}},
		Prompt: "my password is hunter2"}
	s := New("/p", ev, decision(), t0, 0)
	line := string(s.Line())
	for _, leak := range []string{"ghp_abc", "curl", "/secret/file", "hunter2", "\x1b"} {
		if strings.Contains(line, leak) {
			t.Errorf("line holds %q: %s", leak, line)
		}
	}
	if s.Tool != `Bash\x1b[2J` || s.Verdict != "deny" || s.Rule != "git.reset-hard" || !s.Block || s.Host != "claude" || s.Event != "pre_tool" || s.Name != "atreides.pre_tool" {
		t.Errorf("attributes %+v", s)
	}
	if s.HandleUS["guard"] != 40 || s.PrepareUS["guard"] != 3 || s.HandleUS["session"] != 7 || len(s.PrepareUS) != 1 {
		t.Errorf("timings %v %v", s.PrepareUS, s.HandleUS)
	}
}

// The hand-written line is what encoding/json writes of the Span.
func TestLineIsJSON(t *testing.T) {
	evs := []*event.Event{
		{Kind: event.PreTool, Host: "claude", HostEvent: "PreToolUse", SessionID: "s\"1\u2028", Tool: event.Tool{Raw: "Bash"}, AgentID: "a", AgentType: "t"},
		{Kind: event.SessionEnd, Host: "gemini", SessionID: "x"},
	}
	for _, ev := range evs {
		for _, d := range []*event.Decision{{}, decision()} {
			s := New("/p", ev, d, t0, time.Second)
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			if got := s.Line(); !bytes.Equal(got, want.Bytes()) {
				t.Errorf("line\n%s\nwant\n%s", got, want.Bytes())
			}
			var back Span
			if err := json.Unmarshal(s.Line(), &back); err != nil || !reflect.DeepEqual(&back, s) {
				t.Errorf("round trip %+v, %v", back, err)
			}
		}
	}
}

// Each Append is one complete line; the spool rotates like the audit
// trail and keeps its files under its own name.
func TestSpool(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	const limit = 5 * 64 << 10
	sp := Spool(dir, func() int64 { return limit })
	ev := &event.Event{Kind: event.PreTool, Host: "claude", SessionID: "s1", Tool: event.Tool{Raw: "Bash"}}
	const n = 4000
	for range n {
		if err := sp.AppendLine(New("/p", ev, decision(), t0, 0).Line()); err != nil {
			t.Fatal(err)
		}
	}
	files, err := sp.Files()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 5 || files[4] != "spans.jsonl" || !strings.HasPrefix(files[0], "spans-") {
		t.Fatalf("files %v", files)
	}
	lines, size := 0, 0
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		size += len(b)
		for l := range bytes.Lines(b) {
			var s Span
			if err := json.Unmarshal(l, &s); err != nil || s.Trace == "" {
				t.Fatalf("%s: line %q: %v", f, l, err)
			}
			lines++
		}
	}
	if size > limit+64<<10 || size < limit/2 || lines >= n {
		t.Fatalf("%d lines in %d bytes kept of %d", lines, size, n)
	}
	if _, err := os.Stat(filepath.Join(dir, "audit.jsonl")); err == nil {
		t.Fatal("the spool wrote the audit trail")
	}
}
