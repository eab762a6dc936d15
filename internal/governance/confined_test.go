//go:build unix

package governance

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/confined/confinedtest"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/trace"
)

// writeFile runs a Write's PreToolUse and PostToolUse around change, as
// the host would.
func (f *fixture) writeFile(rel string, change func(path string)) {
	f.t.Helper()
	p := filepath.Join(f.root, rel)
	if d := f.write("s1", rel); d.Verdict != event.None {
		f.t.Fatalf("write %s: %s", rel, d.Reason)
	}
	change(p)
	f.run(&event.Event{Kind: event.PostTool, SessionID: "s1", ToolUseID: "w-" + rel,
		Tool: event.Tool{Name: event.Write, Raw: "Write", Paths: []string{p}}})
}

// The agent chooses the paths it writes: a FIFO there hung the hook (the
// snapshot and the PostToolUse read the file, under the state lock) until
// something wrote to the pipe. Now it is tracked by existence only and
// makes no record.
func TestWrittenFIFODoesNotHang(t *testing.T) {
	f := newFixture(t)
	f.selectIntent("s1", "auth")
	pipe := filepath.Join(f.root, "src/auth/pipe")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	confinedtest.Within(t, "a Write to a FIFO", func() { f.writeFile("src/auth/pipe", func(string) {}) })
	confinedtest.Within(t, "a late record of a FIFO", func() {
		f.runLockedOut(&event.Event{Kind: event.PostTool, SessionID: "s1", ToolUseID: "w-late",
			Tool: event.Tool{Name: event.Write, Raw: "Write", Paths: []string{pipe}}})
	})
	// A file that becomes a FIFO between the two hooks.
	a := filepath.Join(f.root, "src/auth/a.go")
	os.WriteFile(a, []byte("package a\n"), 0o644)
	confinedtest.Within(t, "a file replaced by a FIFO", func() {
		f.writeFile("src/auth/a.go", func(p string) {
			os.Remove(p)
			syscall.Mkfifo(p, 0o644)
		})
	})
	if entries, err := trace.Read(TracePath(f.root)); len(entries) != 0 || (err != nil && !os.IsNotExist(err)) {
		t.Fatalf("records for a FIFO: %+v %v", entries, err)
	}
	if n := trace.Missing(TracePath(f.root)); n != 0 {
		t.Fatalf("%d records queued for a FIFO", n)
	}
}

// A file larger than maxHashed is not read: its change is found by size
// and modification time, and its record has no hashes or range.
func TestLargeFileRecordedBySize(t *testing.T) {
	f := newFixture(t)
	f.selectIntent("s1", "auth")
	big := bytes.Repeat([]byte("x\n"), maxHashed/2+1)
	p := filepath.Join(f.root, "src/auth/big.txt")
	os.WriteFile(p, big, 0o644)
	f.writeFile("src/auth/big.txt", func(p string) {
		big[0] = 'y' // same size
		os.WriteFile(p, big, 0o644)
		later := time.Now().Add(time.Minute)
		os.Chtimes(p, later, later)
	})
	f.writeFile("src/auth/big.txt", func(string) {}) // unchanged: no record
	entries, err := trace.Read(TracePath(f.root))
	if err != nil || len(entries) != 1 {
		t.Fatalf("%d records, %v", len(entries), err)
	}
	m := entries[0].Record.Metadata.Atreides
	if m.Change != trace.Modify || m.Before != "" || m.After != "" || len(entries[0].Record.Files[0].Conversations[0].Ranges) != 0 {
		t.Fatalf("record of a large file: %+v %+v", m, entries[0].Record.Files)
	}
}

// A repository that commits the ledger as a link to a file of the user's:
// the PostToolUse of a change neither writes through it nor fails the
// hook; it logs the refusal and queues the record, which the first append
// after the link is gone adds.
func TestLinkedLedgerIsNotWrittenThrough(t *testing.T) {
	f := newFixture(t)
	f.selectIntent("s1", "auth")
	user := confinedtest.Outside(t)
	if err := os.Symlink(user, TracePath(f.root)); err != nil {
		t.Fatal(err)
	}
	f.writeFile("src/auth/a.go", func(p string) { os.WriteFile(p, []byte("package a\n"), 0o644) })
	confinedtest.Untouched(t, user)
	if !f.env.logged("trace:", "queued", "trace.jsonl: it is a symbolic link") {
		t.Errorf("refusal not logged: %q", f.env.log)
	}
	if n := trace.Missing(TracePath(f.root)); n != 1 {
		t.Fatalf("%d records queued, want 1", n)
	}

	os.Remove(TracePath(f.root))
	f.writeFile("src/auth/b.go", func(p string) { os.WriteFile(p, []byte("package b\n"), 0o644) })
	entries, err := trace.Read(TracePath(f.root))
	if err != nil || len(entries) != 2 || entries[0].Record.Files[0].Path != "src/auth/a.go" {
		t.Fatalf("after the link is gone: %d records, %v", len(entries), err)
	}
	confinedtest.Untouched(t, user)
}

// The queue directory committed as a link to a directory of the user's:
// a record that has to be queued is not written there; the handler's
// failure is logged and the hook goes on.
func TestLinkedQueueIsNotWrittenThrough(t *testing.T) {
	f := newFixture(t)
	f.selectIntent("s1", "auth")
	evil := t.TempDir()
	if err := os.Symlink(evil, trace.PendingDir(TracePath(f.root))); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(f.root, "src/auth/a.go")
	os.WriteFile(a, []byte("package a\n"), 0o644)
	f.runLockedOut(&event.Event{Kind: event.PostTool, SessionID: "s1", ToolUseID: "w-late",
		Tool: event.Tool{Name: event.Write, Raw: "Write", Paths: []string{a}}})
	if es, _ := os.ReadDir(evil); len(es) != 0 {
		t.Fatalf("queued through the link: %v", es)
	}
	if !f.env.logged("queue trace record", "trace.jsonl.pending: it is a symbolic link") {
		t.Errorf("refusal not logged: %q", f.env.log)
	}
}
