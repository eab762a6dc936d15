package governance

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/trace"
)

// signed makes the fixture sign checkpoints in a temporary config dir.
func (f *fixture) signed() *trace.Anchor {
	f.opts.KeyDir = f.t.TempDir()
	return trace.NewAnchor(f.opts.KeyDir, f.root)
}

// shellWrite runs a shell command's PreToolUse and PostToolUse around a
// change to rel, as the host would.
func (f *fixture) shellWrite(cmd, id, rel, content string) {
	f.t.Helper()
	if d := f.shell("s1", cmd, id, event.PreTool); d.Verdict != event.None {
		f.t.Fatalf("%s: %s", cmd, d.Reason)
	}
	os.WriteFile(filepath.Join(f.root, rel), []byte(content), 0o644)
	f.shell("s1", cmd, id, event.PostTool)
}

// The ledger is committed: it names the programs a command ran and never
// its arguments, which carry passwords.
func TestLedgerKeepsNoCommandText(t *testing.T) {
	f := newFixture(t)
	a := f.signed()
	f.selectIntent("s1", "auth")
	f.shellWrite("sshpass -p hunter2 scp x host: > src/auth/log.txt", "t1", "src/auth/log.txt", "copied\n")
	f.shellWrite("curl -u u:PASS https://example.com/k -o src/auth/key.pem", "t2", "src/auth/key.pem", "KEY\n")
	f.shellWrite(`env AWS_SECRET_ACCESS_KEY=V1 sh -c "sed -i s/a/b/ src/auth/log.txt"`, "t3", "src/auth/log.txt", "changed\n")
	data, _ := os.ReadFile(TracePath(f.root))
	for _, secret := range []string{"hunter2", "PASS", "u:", "V1", "example.com", "sed -i", `"command"`} {
		if strings.Contains(string(data), secret) {
			t.Errorf("ledger holds %q:\n%s", secret, data)
		}
	}
	entries, _ := trace.Read(TracePath(f.root))
	want := [][]string{{"sshpass"}, {"curl"}, {"env", "sh", "sed"}}
	if len(entries) != len(want) {
		t.Fatalf("%d records", len(entries))
	}
	for i, w := range want {
		if got := entries[i].Record.Metadata.Atreides.Programs; strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("record %d programs %q, want %q", i+1, got, w)
		}
	}
	if rep := trace.Verify(TracePath(f.root), nil, a); !rep.OK || rep.Head.Source != trace.SourceCheckpoint || rep.Records != 3 {
		t.Fatalf("%+v", rep)
	}
}

// lockedOut is the store when a hook cannot get the state lock: Update
// fails without running fn, and the engine runs the handlers on a fresh
// state that is not saved.
type lockedOut struct{}

func (lockedOut) Update(context.Context, *event.Event, state.Groups, func(*engine.State) error) error {
	return errors.New("timed out waiting for the state lock")
}

func (f *fixture) runLockedOut(ev *event.Event) {
	ev.ProjectDir, ev.Host, ev.Cwd, ev.Time = f.root, "claude", f.root, f.env.now
	engine.New(lockedOut{}, f.env, Handler(func() Options { return f.opts }, LoadIntents())).Run(context.Background(), ev)
}

// Before, a PostToolUse that could not get the state lock found no
// snapshot and the change was silently left out of the ledger. Now it is
// queued, verify counts it as missing, and the next append adds it.
func TestRecordNotDroppedWhenLockTimesOut(t *testing.T) {
	f := newFixture(t)
	a := f.signed()
	f.selectIntent("s1", "auth")
	b := filepath.Join(f.root, "src/auth/b.go")
	f.write("s1", "src/auth/b.go")
	os.WriteFile(b, []byte("package b\n"), 0o644)
	f.runLockedOut(&event.Event{Kind: event.PostTool, SessionID: "s1", ToolUseID: "w-src/auth/b.go",
		Tool: event.Tool{Name: event.Write, Raw: "Write", Paths: []string{b}}})

	rep := trace.Verify(TracePath(f.root), nil, a)
	if rep.Missing != 1 || rep.Records != 0 {
		t.Fatalf("after the locked-out PostToolUse: %+v", rep)
	}
	// The next write that holds the lock appends it first.
	f.shellWrite("tee src/auth/c.go", "t2", "src/auth/c.go", "package c\n")
	rep = trace.Verify(TracePath(f.root), nil, a)
	if !rep.OK || rep.Missing != 0 || rep.Records != 2 || rep.Late != 1 {
		t.Fatalf("after the next append: %+v", rep)
	}
	entries, _ := trace.Read(TracePath(f.root))
	m := entries[0].Record.Metadata.Atreides
	if entries[0].Record.Files[0].Path != "src/auth/b.go" || m.Change != trace.Unknown || m.After != trace.Sum([]byte("package b\n")) || m.Late == "" {
		t.Fatalf("late record: %+v", m)
	}
}

// A PreToolUse that could not get the lock took no snapshot; the
// PostToolUse that does get it records the change as late, directly.
func TestLateRecordWhenPreToolUseWasLockedOut(t *testing.T) {
	f := newFixture(t)
	f.selectIntent("s1", "auth")
	f.shell("s1", "true", "t0", event.PreTool) // the session exists
	cmd := "sed -i s/a/b/ src/auth/a.go"
	f.runLockedOut(&event.Event{Kind: event.PreTool, SessionID: "s1", ToolUseID: "t1", Tool: event.Tool{Name: event.Shell, Raw: "Bash", Command: cmd}})
	os.WriteFile(filepath.Join(f.root, "src/auth/a.go"), []byte("b\n"), 0o644)
	f.env.now = f.env.now.Add(time.Second) // hooks run at different instants
	f.shell("s1", cmd, "t1", event.PostTool)
	entries, _ := trace.Read(TracePath(f.root))
	if len(entries) != 1 || entries[0].Record.Metadata.Atreides.Change != trace.Unknown || entries[0].Record.Metadata.Atreides.Programs[0] != "sed" {
		t.Fatalf("%+v", entries)
	}
	if _, err := os.Stat(trace.PendingDir(TracePath(f.root))); !os.IsNotExist(err) {
		t.Error("queued instead of appended under the lock")
	}
}

// A ledger record names the version Options.Version gives, which is asked
// for only when a record is written: a build without a release stamp
// reads its module information for it, and most events write none.
func TestLedgerAsksVersionForRecordsOnly(t *testing.T) {
	f := newFixture(t)
	asked := 0
	f.opts.Version = func() string { asked++; return "v9.9.9" }
	f.selectIntent("s1", "auth")
	f.shell("s1", "ls src", "t0", event.PreTool)
	f.shell("s1", "ls src", "t0", event.PostTool)
	if asked != 0 {
		t.Fatalf("version asked %d times by a command that changed nothing", asked)
	}
	f.shellWrite("sh -c 'echo x > src/auth/a.txt'", "t1", "src/auth/a.txt", "x\n")
	entries, err := trace.Read(TracePath(f.root))
	if err != nil || len(entries) != 1 {
		t.Fatalf("%d records, %v", len(entries), err)
	}
	if v := entries[0].Record.Tool.Version; v != "v9.9.9" || asked == 0 {
		t.Errorf("record names version %q (asked %d times), want v9.9.9", v, asked)
	}
}
