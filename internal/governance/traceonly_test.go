package governance

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/trace"
)

// writeThrough runs a Write's PreToolUse, writes the file, and runs its
// PostToolUse, as the host would.
func (f *fixture) writeThrough(session, rel, content string) *event.Decision {
	f.t.Helper()
	d := f.write(session, rel)
	if d.Verdict == event.Deny {
		return d
	}
	p := filepath.Join(f.root, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(content), 0o644)
	f.run(&event.Event{Kind: event.PostTool, SessionID: session, ToolUseID: "w-" + rel,
		Tool: event.Tool{Name: event.Write, Raw: "Write", Paths: []string{p}}})
	return d
}

func ledger(t *testing.T, root string) []trace.Entry {
	t.Helper()
	entries, err := trace.Read(TracePath(root))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return entries
}

// With governance off and the task system's scoped commits on
// (TraceOnly), every write is recorded with its session, and none is
// gated: no intent is needed, any path may be written.
func TestTraceOnlyRecordsWithoutGating(t *testing.T) {
	f := newFixture(t)
	f.opts.Enabled, f.opts.TraceOnly, f.opts.Trace = false, true, false
	for _, rel := range []string{"src/main.go", "src/auth/a.go"} {
		if d := f.writeThrough("s1", rel, "package x\n"); d.Verdict != event.None {
			t.Fatalf("%s gated in trace-only mode: %v %q", rel, d.Verdict, d.Reason)
		}
	}
	f.shellWrite("echo y > docs.txt", "b1", "docs.txt", "y\n")
	// An unknown shell target is not asked about either.
	if d := f.shell("s1", "echo x > $OUT", "b2", event.PreTool); d.Verdict != event.None {
		t.Fatalf("unknown target gated: %v", d.Reason)
	}
	entries := ledger(t, f.root)
	var got []string
	for _, e := range entries {
		m := e.Record.Metadata.Atreides
		if m.Session != "s1" || m.Intent != "" || m.Change != trace.Create {
			t.Errorf("record %+v", m)
		}
		got = append(got, e.Record.Files[0].Path)
	}
	if want := "src/main.go src/auth/a.go docs.txt"; strings.Join(got, " ") != want {
		t.Fatalf("ledger paths %q, want %q", strings.Join(got, " "), want)
	}
}

// Both off: nothing is written, nothing is gated.
func TestTraceOnlyOffWritesNothing(t *testing.T) {
	f := newFixture(t)
	f.opts.Enabled, f.opts.TraceOnly = false, false
	if d := f.writeThrough("s1", "src/main.go", "package main\n"); d.Verdict != event.None {
		t.Fatalf("gated: %q", d.Reason)
	}
	if _, err := os.Stat(TracePath(f.root)); !os.IsNotExist(err) {
		t.Fatalf("ledger written with governance and commits off: %v", err)
	}
}

// With governance on, TraceOnly changes nothing: the gate still asks for
// an intent and refuses writes outside its scope, and only allowed writes
// are recorded, under the intent.
func TestTraceOnlyLeavesGateAlone(t *testing.T) {
	for _, traceOnly := range []bool{false, true} {
		f := newFixture(t)
		f.opts.TraceOnly = traceOnly
		if d := f.writeThrough("s1", "src/auth/a.go", "a\n"); d.Rule != "governance.no-intent" {
			t.Fatalf("traceOnly=%v: write without intent: %v %q", traceOnly, d.Rule, d.Reason)
		}
		f.selectIntent("s1", "auth")
		if d := f.writeThrough("s1", "src/main.go", "m\n"); d.Rule != "governance.out-of-scope" {
			t.Fatalf("traceOnly=%v: out of scope: %v %q", traceOnly, d.Rule, d.Reason)
		}
		if d := f.writeThrough("s1", "src/auth/a.go", "a\n"); d.Verdict != event.None {
			t.Fatalf("traceOnly=%v: in scope: %v %q", traceOnly, d.Rule, d.Reason)
		}
		entries := ledger(t, f.root)
		if len(entries) != 1 || entries[0].Record.Metadata.Atreides.Intent != "auth" || entries[0].Record.Files[0].Path != "src/auth/a.go" {
			t.Fatalf("traceOnly=%v: ledger %+v", traceOnly, entries)
		}
	}
}

// BenchmarkTraceOnlyWrite is a Write's PreToolUse and PostToolUse
// through the engine and a real store, with the handler off and in
// trace-only mode: the work the scoped commits add to a hook.
func BenchmarkTraceOnlyWrite(b *testing.B) {
	for _, traceOnly := range []bool{false, true} {
		b.Run(map[bool]string{false: "off", true: "trace-only"}[traceOnly], func(b *testing.B) {
			f := newFixture(b)
			f.opts.Enabled, f.opts.TraceOnly = false, traceOnly
			p := filepath.Join(f.root, "src/main.go")
			for i := 0; b.Loop(); i++ {
				f.write("s1", "src/main.go")
				os.WriteFile(p, []byte(strings.Repeat("x", i%100)), 0o644)
				f.run(&event.Event{Kind: event.PostTool, SessionID: "s1", ToolUseID: "w-src/main.go",
					Tool: event.Tool{Name: event.Write, Raw: "Write", Paths: []string{p}}})
			}
		})
	}
}

// Every mode records the sessions the project sees: the task commands an
// agent runs through its shell bind to the most recent one when the host
// names none (OpenCode, Gemini CLI, Codex), governance on or off.
func TestRecentSessionsInEveryMode(t *testing.T) {
	for _, m := range []struct {
		name               string
		enabled, traceOnly bool
	}{{"governance", true, false}, {"trace-only", false, true}, {"off", false, false}} {
		t.Run(m.name, func(t *testing.T) {
			f := newFixture(t)
			f.opts.Enabled, f.opts.TraceOnly = m.enabled, m.traceOnly
			f.run(&event.Event{Kind: event.SessionStart, SessionID: "s1"})
			f.shell("s2", "ls", "b1", event.PreTool)
			var id string
			err := f.st.View(context.Background(), func(tx *store.Tx) error {
				p, err := state.LoadProject(tx)
				id, _ = govstate.Key.Of(p).Caller(nil)
				return err
			})
			if err != nil || id != "s2" {
				t.Fatalf("caller %q (%v), want s2", id, err)
			}
		})
	}
}
