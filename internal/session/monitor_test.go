package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
)

// transcript is a Claude Code transcript the test appends to.
type transcript struct {
	t    *testing.T
	path string
}

func (tr transcript) add(line string) {
	tr.t.Helper()
	if err := os.MkdirAll(filepath.Dir(tr.path), 0o755); err != nil {
		tr.t.Fatal(err)
	}
	f, err := os.OpenFile(tr.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		tr.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		tr.t.Fatal(err)
	}
}

// used appends an assistant entry whose usage is that many tokens.
func (tr transcript) used(tokens int, sidechain bool) {
	tr.add(fmt.Sprintf(`{"isSidechain":%v,"type":"assistant","message":{"role":"assistant","model":"claude-opus-5-5","usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":%d,"output_tokens":0}}}`, sidechain, tokens-10))
}

func TestMonitor(t *testing.T) {
	dir := t.TempDir()
	main := transcript{t, filepath.Join(dir, "s1.jsonl")}
	sub := transcript{t, filepath.Join(dir, "s1", "subagents", "agent-sub1.jsonl")}
	opts := builtinOptions()
	loader := &memLoader{}
	eng := engine.New(loader, testEnv{t}, Handlers(func() Options { return opts }, engine.AnyKind)...)
	now := t0

	type step struct {
		name    string
		do      func()
		kind    event.Kind
		source  string
		agent   string
		path    string // transcript, default main's
		want    []string
		wantNot bool // no monitor note at all
	}
	steps := []step{
		{name: "half full: nothing", do: func() { main.used(100_000, false) }, kind: event.PostTool, wantNot: true},
		{name: "72%: finish the step, record anchors", do: func() { main.used(144_000, false) }, kind: event.PostTool,
			want: []string{"72% full (144,000 of 200,000 tokens)", "atreides anchor add", "remember:"}},
		{name: "75%: said already", do: func() { main.used(150_000, false) }, kind: event.PostTool, wantNot: true},
		{name: "a prompt at 75%: said already", kind: event.UserPrompt, wantNot: true},
		{name: "86%: wrap up and compact", do: func() { main.used(172_000, false) }, kind: event.UserPrompt,
			want: []string{"86% full", "Wrap up now", "(/compact)", "saved your working state"}},
		{name: "90%: said already", do: func() { main.used(180_000, false) }, kind: event.PostTool, wantNot: true},
		{name: "a subagent without its own figures: nothing", agent: "sub1", kind: event.PostTool, wantNot: true},
		{name: "a subagent with its own: its own note", agent: "sub1", do: func() { sub.used(176_000, true) }, kind: event.PostTool,
			want: []string{"88% full", "return your result to the lead agent"}},
		{name: "compaction", do: func() {
			main.add(`{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":180000,"postTokens":20000}}`)
		}, kind: event.SessionStart, source: "compact", wantNot: true},
		{name: "after it, 10%: nothing", kind: event.PostTool, wantNot: true},
		{name: "71% after the compaction: told again", do: func() { main.used(142_000, false) }, kind: event.PostTool,
			want: []string{"71% full"}},
		{name: "no transcript: nothing", path: "-", kind: event.PostTool, wantNot: true},
	}
	for _, s := range steps {
		now = now.Add(time.Minute)
		if s.do != nil {
			s.do()
		}
		ev := &event.Event{Kind: s.kind, Host: "claude", Facts: testHosts["claude"], SessionID: "s1", Source: s.source, AgentID: s.agent,
			TranscriptPath: main.path, ProjectDir: dir, Cwd: dir, ContextCap: 10_000, Time: now}
		switch s.path {
		case "-":
			ev.TranscriptPath = ""
		case "":
		default:
			ev.TranscriptPath = s.path
		}
		if s.kind == event.PostTool {
			ev.Tool = event.Tool{Name: event.Read, Raw: "Read", Paths: []string{filepath.Join(dir, "x.go")}}
		}
		if s.kind == event.UserPrompt {
			ev.Prompt = "go on"
		}
		d := eng.Run(context.Background(), ev)
		var notes []string
		for _, e := range d.Context {
			if e.Source == "monitor" {
				notes = append(notes, e.Text)
			}
		}
		got := strings.Join(notes, "\n")
		if s.wantNot && got != "" {
			t.Errorf("%s: unexpected monitor note %q", s.name, got)
		}
		if !s.wantNot && len(notes) != 1 {
			t.Errorf("%s: %d monitor notes %q, want 1", s.name, len(notes), notes)
		}
		for _, w := range s.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: note %q lacks %q", s.name, got, w)
			}
		}
		if s.name == "86%: wrap up and compact" {
			// The live state is fresher at a compaction than any snapshot
			// taken here: PreCompact takes the one the state block uses.
			if sess, _ := loader.state(t, "s1"); compaction.Key.Of(sess).Snapshot != nil {
				t.Errorf("a snapshot taken at a threshold: %+v", compaction.Key.Of(sess).Snapshot)
			}
		}
	}
}

func TestCrossed(t *testing.T) {
	for _, c := range []struct {
		th      []int
		percent int
		level   int
		last    bool
	}{
		{[]int{70, 85}, 69, 0, false},
		{[]int{70, 85}, 70, 70, false},
		{[]int{70, 85}, 84, 70, false},
		{[]int{70, 85}, 85, 85, true},
		{[]int{70, 85}, 100, 85, true},
		{[]int{50, 70, 90}, 75, 70, false},
		{[]int{90}, 95, 90, true},
		{nil, 99, 0, false},
	} {
		level, last := crossed(c.th, c.percent)
		if level != c.level || last != c.last {
			t.Errorf("crossed(%v, %d) = %d, %v; want %d, %v", c.th, c.percent, level, last, c.level, c.last)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 150000: "150,000", 1000000: "1,000,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// BenchmarkMonitorPostTool is the monitor's cost on a PostTool of a
// session whose 50 MB transcript changed since the last event (the tail
// read) and below every threshold (no note).
func BenchmarkMonitorPostTool(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	entry := `{"isSidechain":false,"type":"assistant","message":{"role":"assistant","model":"m","usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":90000,"output_tokens":0}}}` + "\n" +
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"` + strings.Repeat("x", 2000) + `"}]}}` + "\n"
	for size := 0; size < 50<<20; size += len(entry) {
		f.WriteString(entry)
	}
	f.Close()
	opts := builtinOptions()
	h := Monitor(func() Options { return opts })
	ev := &event.Event{Kind: event.PostTool, Host: "claude", Facts: testHosts["claude"], SessionID: "s", TranscriptPath: path, Time: t0}
	st := engine.NewState(ev)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// A new modification time: the cache misses, as in a new hook process.
		os.Chtimes(path, t0, t0.Add(time.Duration(i)*time.Second))
		if r, err := h.Handle(&engine.Call{Event: ev, State: st}); err != nil || len(r.Context) != 0 {
			b.Fatalf("%+v, %v", r, err)
		}
	}
}
