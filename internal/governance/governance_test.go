package governance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/trace"
)

type env struct {
	now time.Time
	mu  sync.Mutex
	log []string // what the handlers logged
}

func (e *env) Logf(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.log = append(e.log, fmt.Sprintf(format, args...))
}
func (e *env) Now() time.Time { return e.now }

// logged reports whether a logged line holds every one of parts.
func (e *env) logged(parts ...string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, l := range e.log {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return true
		}
	}
	return false
}

// fixture is a project with intents and a real store, run through the
// engine like a hook process does.
type fixture struct {
	t    testing.TB
	root string
	env  *env
	opts Options
	st   *store.Store
}

const intentsYAML = `intents:
  - id: auth
    title: Auth rework
    goal: Sessions expire
    owned_scope: [src/auth/**]
    constraints: [no new deps]
    acceptance_criteria: [go test ./... passes]
  - id: docs
    title: Docs
    owned_scope: [docs]
`

func newFixture(t testing.TB) *fixture {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
	os.MkdirAll(filepath.Join(root, "src", "auth"), 0o755)
	os.WriteFile(IntentsPath(root), []byte(intentsYAML), 0o644)
	o := FromConfig(config.Builtin())
	o.Enabled = true
	return &fixture{t: t, root: root, env: &env{now: time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)}, opts: o,
		st: store.Open(project.StateDir(root))}
}

func (f *fixture) run(ev *event.Event) *event.Decision {
	ev.ProjectDir = f.root
	if ev.Host == "" {
		ev.Host = "claude"
	}
	if ev.Cwd == "" {
		ev.Cwd = f.root
	}
	ev.Time = f.env.now
	switch ev.Kind {
	case event.SessionStart, event.UserPrompt, event.PreTool, event.PostTool, event.SubagentStart:
		ev.ContextCap = 10000 // as Claude Code's adapter sets it for these events
	}
	eng := engine.New(engine.StoreLoader{Store: f.st}, f.env,
		Handler(func() Options { return f.opts }, LoadIntents()))
	return eng.Run(context.Background(), ev)
}

func (f *fixture) write(session, rel string) *event.Decision {
	p := filepath.Join(f.root, rel)
	in, _ := json.Marshal(map[string]string{"file_path": p, "content": "x"})
	return f.run(&event.Event{Kind: event.PreTool, SessionID: session, ToolUseID: "w-" + rel,
		Tool: event.Tool{Name: event.Write, Raw: "Write", Input: in, Paths: []string{p}}})
}

func (f *fixture) shell(session, cmd, id string, kind event.Kind) *event.Decision {
	return f.run(&event.Event{Kind: kind, SessionID: session, ToolUseID: id,
		Tool: event.Tool{Name: event.Shell, Raw: "Bash", Command: cmd}})
}

func (f *fixture) selectIntent(session, id string) error {
	file, err := intent.Load(IntentsPath(f.root))
	if err != nil {
		return err
	}
	return f.st.Update(context.Background(), func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			_, err := Select(p, file, session, "test", id, f.env.now, f.opts.Lease)
			return err
		})
	})
}

func TestGate(t *testing.T) {
	f := newFixture(t)
	d := f.write("s1", "src/auth/a.go")
	if d.Verdict != event.Deny || !strings.Contains(d.Reason, "select_active_intent") || !strings.Contains(d.Reason, "auth: Auth rework") {
		t.Fatalf("write before selection: %v %q", d.Verdict, d.Reason)
	}
	// Reads are never gated.
	if d := f.run(&event.Event{Kind: event.PreTool, SessionID: "s1", Tool: event.Tool{Name: event.Read, Raw: "Read", Paths: []string{f.root + "/x"}}}); d.Verdict != event.None {
		t.Fatalf("read gated: %v", d.Reason)
	}
	if d := f.shell("s1", "cat src/auth/a.go; ls", "r1", event.PreTool); d.Verdict != event.None {
		t.Fatalf("read-only shell gated: %v", d.Reason)
	}
	// atreides's own MCP tools are allowed without a permission prompt;
	// other MCP tools are left to the host.
	for name, want := range map[string]event.Verdict{"mcp:atreides__select_active_intent": event.Allow, "mcp:other__x": event.None} {
		if d := f.run(&event.Event{Kind: event.PreTool, SessionID: "s1", Tool: event.Tool{Name: event.ToolName(name), Raw: "mcp__" + name[4:]}}); d.Verdict != want {
			t.Fatalf("%s: verdict %v, want %v", name, d.Verdict, want)
		}
	}
	if err := f.selectIntent("s1", "auth"); err != nil {
		t.Fatal(err)
	}
	if d := f.write("s1", "src/auth/a.go"); d.Verdict != event.None {
		t.Fatalf("write in scope: %v %q", d.Verdict, d.Reason)
	}
	d = f.write("s1", "src/main.go")
	if d.Verdict != event.Deny || !strings.Contains(d.Reason, "src/main.go is outside the owned scope of intent auth") || !strings.Contains(d.Reason, "request_scope_expansion") {
		t.Fatalf("write out of scope: %v %q", d.Verdict, d.Reason)
	}
	d = f.shell("s1", "echo x > README.md", "b1", event.PreTool)
	if d.Verdict != event.Deny || !strings.Contains(d.Reason, "README.md") {
		t.Fatalf("shell out of scope: %v %q", d.Verdict, d.Reason)
	}
	d = f.shell("s1", "echo x > $OUT", "b2", event.PreTool)
	if d.Verdict != event.Ask || d.Rule != "governance.unknown-writes" {
		t.Fatalf("unknown target: %v %q", d.Verdict, d.Reason)
	}
	// Another session is refused the held intent and told who holds it.
	err := f.selectIntent("s2", "auth")
	var held *HeldError
	if !asHeld(err, &held) || held.Session != "s1" {
		t.Fatalf("second session: %v", err)
	}
	// Closing the intent in the file takes the session's right to write.
	os.WriteFile(IntentsPath(f.root), []byte(strings.Replace(intentsYAML, "title: Auth rework", "title: Auth rework\n    status: done", 1)), 0o644)
	if d := f.write("s1", "src/auth/a.go"); d.Rule != "governance.intent-closed" {
		t.Fatalf("closed intent: %v %q", d.Rule, d.Reason)
	}
}

func asHeld(err error, h **HeldError) bool {
	e, ok := err.(*HeldError)
	if ok {
		*h = e
	}
	return ok
}

func TestDisabledDoesNothing(t *testing.T) {
	f := newFixture(t)
	f.opts.Enabled = false
	if d := f.write("s1", "anything.go"); d.Verdict != event.None {
		t.Fatal("gate ran while disabled")
	}
}

func TestLeaseExpiry(t *testing.T) {
	f := newFixture(t)
	f.opts.Lease = 10 * time.Minute
	if err := f.selectIntent("s1", "auth"); err != nil {
		t.Fatal(err)
	}
	f.env.now = f.env.now.Add(9 * time.Minute)
	f.write("s1", "src/auth/a.go") // activity renews the lease
	f.env.now = f.env.now.Add(9 * time.Minute)
	if err := f.selectIntent("s2", "auth"); err == nil {
		t.Fatal("lease renewed by activity must still hold")
	}
	f.env.now = f.env.now.Add(2 * time.Minute)
	if err := f.selectIntent("s2", "auth"); err != nil {
		t.Fatalf("lapsed lease not taken over: %v", err)
	}
	d := f.write("s1", "src/auth/a.go")
	if d.Verdict != event.Deny || !strings.Contains(d.Reason, "held by session s2") {
		t.Fatalf("old holder: %v %q", d.Verdict, d.Reason)
	}
}

func TestSessionEndReleases(t *testing.T) {
	f := newFixture(t)
	f.selectIntent("s1", "auth")
	f.run(&event.Event{Kind: event.SessionEnd, SessionID: "s1"})
	if err := f.selectIntent("s2", "auth"); err != nil {
		t.Fatal(err)
	}
}

// Many goroutines, each with its own store transaction (and lock file
// descriptor), race for one intent: exactly one wins.
func TestSelectRaceGoroutines(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := 0; i < 30; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f.selectIntent(fmt.Sprintf("s%d", i), "auth"); err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d winners", wins)
	}
}

// Many processes race for one intent: exactly one wins.
func TestSelectRaceProcesses(t *testing.T) {
	if root := os.Getenv("GOV_RACE_ROOT"); root != "" {
		f := &fixture{root: root, env: &env{now: time.Now()}, opts: FromConfig(config.Builtin()), st: store.Open(project.StateDir(root))}
		if err := f.selectIntent(os.Getenv("GOV_RACE_SESSION"), "auth"); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	f := newFixture(t)
	const n = 16
	cmds := make([]*exec.Cmd, n)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^TestSelectRaceProcesses$")
		cmds[i].Env = append(os.Environ(), "GOV_RACE_ROOT="+f.root, fmt.Sprintf("GOV_RACE_SESSION=p%d", i))
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	wins := 0
	for _, c := range cmds {
		err := c.Wait()
		if err == nil {
			wins++
		} else if c.ProcessState.ExitCode() != 3 {
			t.Fatalf("child failed: %v", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d processes won the intent", wins)
	}
}

func TestLedgerFromHooks(t *testing.T) {
	f := newFixture(t)
	f.selectIntent("s1", "auth")
	a := filepath.Join(f.root, "src/auth/a.go")
	os.WriteFile(a, []byte("one\ntwo\nthree\n"), 0o644)
	// Edit through a shell command: hashed before and after.
	if d := f.shell("s1", "sed -i s/two/TWO/ src/auth/a.go", "t1", event.PreTool); d.Verdict != event.None {
		t.Fatal(d.Reason)
	}
	os.WriteFile(a, []byte("one\nTWO\nthree\n"), 0o644)
	f.shell("s1", "sed -i s/two/TWO/ src/auth/a.go", "t1", event.PostTool)
	// A new file through Write.
	f.write("s1", "src/auth/b.go")
	os.WriteFile(filepath.Join(f.root, "src/auth/b.go"), []byte("package b\n"), 0o644)
	f.run(&event.Event{Kind: event.PostTool, SessionID: "s1", ToolUseID: "w-src/auth/b.go",
		Tool: event.Tool{Name: event.Write, Raw: "Write", Paths: []string{filepath.Join(f.root, "src/auth/b.go")}}})
	entries, err := trace.Read(TracePath(f.root))
	if err != nil || len(entries) != 2 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
	m0, m1 := entries[0].Record.Metadata.Atreides, entries[1].Record.Metadata.Atreides
	r0 := entries[0].Record.Files[0].Conversations[0].Ranges[0]
	if m0.Intent != "auth" || m0.Change != trace.Modify || r0.StartLine != 2 || r0.EndLine != 2 || r0.ContentHash != trace.Sum([]byte("TWO\n")) || m0.HostTool != "Bash" {
		t.Fatalf("shell record: %+v %+v", m0, r0)
	}
	if m1.Change != trace.Create || entries[1].Record.Files[0].Path != "src/auth/b.go" || m1.Prev != m0.Hash {
		t.Fatalf("write record: %+v", m1)
	}
	var head trace.Head
	f.st.View(context.Background(), func(tx *store.Tx) error {
		p, _ := state.LoadProject(tx)
		head = trace.Head{Seq: govstate.Key.Of(p).Trace.Seq, Hash: govstate.Key.Of(p).Trace.Hash}
		return nil
	})
	if rep := trace.Verify(TracePath(f.root), &head, nil); !rep.OK || rep.Records != 2 || head.Seq != 2 {
		t.Fatalf("verify: %+v head %+v", rep, head)
	}
}

// TestGateNamesHostsTools: the gate's messages name atreides's tools as
// the event's host calls them.
func TestGateNamesHostsTools(t *testing.T) {
	f := newFixture(t)
	// Facts with prefixes of their own: the names come from the event's.
	facts := func(host string) *event.HostFacts { return &event.HostFacts{ToolPrefix: host + "-prefix_"} }
	p := filepath.Join(f.root, "src/auth/a.go")
	d := f.run(&event.Event{Kind: event.PreTool, Host: "gemini", Facts: facts("gemini"), SessionID: "s1", ToolUseID: "w1",
		Tool: event.Tool{Name: event.Write, Raw: "write_file", Paths: []string{p}}})
	if d.Verdict != event.Deny || !strings.Contains(d.Reason, "Call atreides's tool gemini-prefix_select_active_intent with the id") {
		t.Fatalf("no intent: %v %q", d.Verdict, d.Reason)
	}
	if err := f.selectIntent("s1", "auth"); err != nil {
		t.Fatal(err)
	}
	d = f.run(&event.Event{Kind: event.PreTool, Host: "codex", Facts: facts("codex"), SessionID: "s1", ToolUseID: "w2",
		Tool: event.Tool{Name: event.Write, Raw: "apply_patch", Paths: []string{filepath.Join(f.root, "README.md")}}})
	if d.Verdict != event.Deny || !strings.Contains(d.Reason, "call codex-prefix_request_scope_expansion with") {
		t.Fatalf("out of scope: %v %q", d.Verdict, d.Reason)
	}
}

// TestGateStoreUnavailable: without the store there are no leases to check
// a write against, so every governed write fails closed with the store's
// reason, even for a session that held an intent; reads still run.
func TestGateStoreUnavailable(t *testing.T) {
	f := newFixture(t)
	if err := f.selectIntent("s1", "auth"); err != nil {
		t.Fatal(err)
	}
	down := errors.New(`state database postgres://atreides@db:5432/atreides unreachable: connection refused`)
	f.st = store.Unavailable(f.st.Dir(), down)
	d := f.write("s1", "src/auth/a.go")
	if d.Verdict != event.Deny || d.Rule != "governance.state-unavailable" || !strings.Contains(d.Reason, "connection refused") {
		t.Fatalf("write while the store is down: %v %s %q", d.Verdict, d.Rule, d.Reason)
	}
	if d := f.shell("s1", "cat src/auth/a.go", "r1", event.PreTool); d.Verdict != event.None {
		t.Fatalf("read while the store is down: %v %q", d.Verdict, d.Reason)
	}
}
