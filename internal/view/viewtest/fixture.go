// Package viewtest builds a project on disk for the tests of the read
// side (packages view, dashboard and export): a state store with two
// sessions and the project's todos, anchors, leases, background tasks and
// task board, an intents file, an audit trail and a trace ledger, all
// written through the packages that write them in a hook.
package viewtest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/subagents"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/todos"
	"github.com/atreides-dev/atreides/internal/trace"
)

// T0 is the fixture's clock: every time in it is T0 plus minutes.
var T0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// At is T0 plus m minutes.
func At(m int) time.Time { return T0.Add(time.Duration(m) * time.Minute) }

// The fixture's sessions.
const (
	Active = "sess-claude-1" // Claude Code, in implementation, a denial, a stop kept going
	Ended  = "sess-gemini-2" // Gemini CLI, ended
)

// Project writes the fixture into a new directory and returns its root.
func Project(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	dir := project.StateDir(root)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, governance.IntentsPath(root), `intents:
  - id: auth
    title: Auth rework
    status: open
    owned_scope: [src/auth/**]
  - id: docs
    title: Document the API
    status: open
    owned_scope: [docs/**]
`)
	Update(t, root, func(tx *store.Tx) error {
		for _, s := range []*state.Session{active(), ended()} {
			if err := state.SaveSession(tx, s); err != nil {
				return err
			}
		}
		return state.SaveProject(tx, proj())
	})
	trail := audit.New(dir, nil)
	for _, r := range records() {
		if err := trail.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	ledger(t, root)
	return root
}

// Update runs fn in one write transaction of the project's store.
func Update(t testing.TB, root string, fn func(tx *store.Tx) error) {
	t.Helper()
	if err := store.Open(project.StateDir(root)).Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// Record appends one audit record for the session, as a hook would.
func Record(t testing.TB, root string, ev *event.Event, d *event.Decision) {
	t.Helper()
	if err := audit.New(project.StateDir(root), nil).Append(audit.NewRecord(ev, d, 300*time.Microsecond)); err != nil {
		t.Fatal(err)
	}
}

// Quarantine stores a damaged session record under id and lets the store
// quarantine it, as the next event of that session would.
func Quarantine(t testing.TB, root, id string) {
	t.Helper()
	Update(t, root, func(tx *store.Tx) error { return tx.PutRecord("sessions", id, []byte("not a record")) })
	Update(t, root, func(tx *store.Tx) error {
		_, err := state.LoadSession(tx, id, "claude", At(90))
		return err
	})
}

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func active() *state.Session {
	s := state.NewSession(Active, "claude", At(0))
	s.Updated, s.Cwd = At(42), "/work/app"
	s.Counters = state.Counters{Events: 30, Prompts: 2, ToolCalls: 12, Denied: 1, Asked: 1, Failed: 2, Stops: 1, Compacts: 1, Escalations: 0}
	phase.Key.Of(s).Set(phase.Exploration, "read src/auth/login.go", At(2))
	phase.Key.Of(s).Set(phase.Implementation, "edit src/auth/login.go", At(10))
	strikes.Key.Of(s).Add("Bash", "go test ./...", strikes.StrikeError{Class: "test", Excerpt: "FAIL TestLogin", Time: At(20)})
	agenttodos.Key.Of(s).Agent = []agenttodos.Todo{
		{Content: "rework the login handler", Status: todos.InProgress},
		{Content: "read the auth package", Status: "completed"},
	}
	subagents.Key.Of(s).Agents = []subagents.Delegation{
		{ID: "ag-1", Type: "explore", Depth: 1, Path: []string{"explore"}, Started: At(3), Stopped: At(6), Outcome: "ok"},
		{ID: "ag-2", Type: "stilgar", Depth: 1, Path: []string{"stilgar"}, Started: At(40)},
	}
	compaction.Key.Of(s).Snapshot = &compaction.Snapshot{Time: At(30), Trigger: "auto", Phase: phase.Implementation}
	*tasks.SessionTaskKey.Of(s) = tasks.SessionTask{Number: 1, Title: "Rework login", Phase: 1, Phases: 2}
	// The call history pairs with the trail's pre records by tool-use id;
	// Grep (tu-grep) was made by the explore subagent and has no pre
	// record, as most calls of tools atreides does not judge.
	h := history.Key.Of(s)
	for _, c := range []history.ToolCall{
		{Time: At(2), ID: "tu-read", Raw: "Read", Summary: "src/auth/login.go", Outcome: "ok", Duration: 40},
		{Time: At(4), ID: "tu-grep", Raw: "Grep", Summary: "Login", Agent: "ag-1", Outcome: "ok", Duration: 1200},
		{Time: At(11), ID: "tu-edit", Raw: "Edit", Summary: "src/auth/login.go", Verdict: "allow", Rule: "governance.in-scope", Outcome: "ok", Duration: 90},
		{Time: At(19), ID: "tu-test", Raw: "Bash", Summary: "go test ./...", Outcome: "failed", Duration: 61000},
		{Time: At(21), ID: "tu-env", Raw: "Bash", Summary: "cat .env", Verdict: "deny", Rule: "secrets.read", Outcome: "blocked"},
		{Time: At(22), ID: "tu-push", Raw: "Bash", Summary: "git push --force", Verdict: "ask", Rule: "git.force-push", Outcome: "pending"},
	} {
		h.Add(c)
	}
	return s
}

func ended() *state.Session {
	s := state.NewSession(Ended, "gemini", At(-300))
	s.Updated, s.Ended = At(-240), "exit"
	s.Counters = state.Counters{Events: 8, Prompts: 1, ToolCalls: 3}
	phase.Key.Of(s).Set(phase.Exploration, "read README.md", At(-290))
	return s
}

func proj() *state.Project {
	p := &state.Project{Version: state.ProjectVersion}
	todos.Key.Of(p).Next = 4
	todos.Key.Of(p).List = []todos.Todo{
		{ID: 1, Level: todos.Task, Title: "Rework login", Status: todos.InProgress, Session: Active, Created: At(1), Updated: At(1)},
		{ID: 2, Parent: 1, Level: todos.Subtask, Title: "Hash passwords with argon2", Status: todos.Done, Session: Active, Created: At(2), Updated: At(25)},
		{ID: 3, Level: todos.Task, Title: "Update the changelog", Status: todos.Pending, Created: At(8), Updated: At(8)}, // added at a terminal
	}
	anchors.Key.Of(p).Next = 3
	anchors.Key.Of(p).List = []anchors.Anchor{
		{ID: 1, Kind: "decision", Priority: "high", Text: "use argon2id for passwords", Session: Active, Created: At(5)},
		{ID: 2, Kind: "constraint", Priority: "medium", Text: "the v1 API stays", Session: Active, Created: At(-24 * 60 * 10)},
	}
	govstate.Key.Of(p).Locks = []govstate.IntentLock{{Intent: "auth", Session: Active, Host: "claude", Since: At(9), Renewed: At(41)}}
	govstate.Key.Of(p).NextExpansion = 2
	govstate.Key.Of(p).Expansions = []govstate.ScopeRequest{{ID: 1, Intent: "auth", Session: Active, Paths: []string{"src/session/**"}, Reason: "the session cookie", Status: "pending", Time: At(15)}}
	bgtasks.Key.Of(p).NextID = 2
	bgtasks.Key.Of(p).Tasks = []bgtasks.Task{{ID: "bg-1", Parent: Active, Host: "claude", Runner: "process", Agent: "explore", Description: "find every caller of Login", Prompt: "find callers", Key: "explore", Status: "completed", Created: At(12), Started: At(12), Ended: At(14), Result: "3 callers: api, cli, web"}}
	*taskboard.Key.Of(p) = taskboard.Tasks{Next: 2, List: []taskboard.Task{{Number: 1, Title: "Rework login", Status: "in_progress", Priority: "high", Plans: []string{".atreides/specs/001-rework-login/plans/v1.md"}, Approved: 1, Phase: 1, Created: At(1), Updated: At(10), Started: At(10)}}}
	return p
}

// records are the fixture's audit trail, in time order.
func records() []*audit.Record {
	type rec struct {
		m       int
		session string
		kind    event.Kind
		hev     string
		tool    string
		command string
		path    string
		d       event.Decision
		call    string // the host's tool-use id, or a user prompt's text
	}
	rs := []rec{
		{-300, Ended, event.PreTool, "BeforeTool", "read_file", "", "README.md", event.Decision{Verdict: event.Allow, Rule: "path.read"}, ""},
		{1, Active, event.UserPrompt, "UserPromptSubmit", "", "", "", event.Decision{}, "Rework the login handler to hash passwords with argon2"},
		{2, Active, event.PreTool, "PreToolUse", "Read", "", "src/auth/login.go", event.Decision{Verdict: event.None}, "tu-read"},
		{11, Active, event.PreTool, "PreToolUse", "Edit", "", "src/auth/login.go", event.Decision{Verdict: event.Allow, Rule: "governance.in-scope"}, "tu-edit"},
		{19, Active, event.PreTool, "PreToolUse", "Bash", "go test ./...", "", event.Decision{Verdict: event.None}, "tu-test"},
		{21, Active, event.PreTool, "PreToolUse", "Bash", "cat .env", "", event.Decision{Verdict: event.Deny, Rule: "secrets.read", Reason: "reading a secrets file is denied"}, "tu-env"},
		{22, Active, event.PreTool, "PreToolUse", "Bash", "git push --force", "", event.Decision{Verdict: event.Ask, Rule: "git.force-push", Reason: "a force push rewrites the remote"}, "tu-push"},
		{35, Active, event.Stop, "Stop", "", "", "", event.Decision{Block: true, BlockReason: "1 todo is still open: rework the login handler"}, ""},
	}
	out := make([]*audit.Record, 0, len(rs))
	for _, r := range rs {
		ev := &event.Event{Kind: r.kind, Host: hostOf(r.session), SessionID: r.session, HostEvent: r.hev, Time: At(r.m)}
		ev.Tool.Raw, ev.Tool.Command = r.tool, r.command
		if r.kind == event.UserPrompt {
			ev.Prompt = r.call
		} else {
			ev.ToolUseID = r.call
		}
		if r.path != "" {
			ev.Tool.Paths = []string{r.path}
		}
		out = append(out, audit.NewRecord(ev, &r.d, 250*time.Microsecond))
	}
	return out
}

func hostOf(session string) string {
	if session == Ended {
		return "gemini"
	}
	return "claude"
}

// ledger appends two changes of src/auth/login.go under the intent auth.
func ledger(t testing.TB, root string) {
	t.Helper()
	w := &trace.Writer{Path: governance.TracePath(root)}
	var head trace.Head
	for i, c := range []struct{ before, after string }{{"", "package auth\n"}, {"package auth\n", "package auth\n\nfunc Login() {}\n"}} {
		change := trace.Create
		if c.before != "" {
			change = trace.Modify
		}
		r := &trace.Record{
			Timestamp: At(11 + i*5).Format(time.RFC3339),
			Files: []trace.File{{Path: "src/auth/login.go", Conversations: []trace.Conversation{{
				Ranges: []trace.Range{{StartLine: 1, EndLine: len(trace.Lines([]byte(c.after))), ContentHash: trace.Sum([]byte(c.after))}},
			}}}},
			Metadata: trace.Metadata{Atreides: &trace.Meta{Intent: "auth", Session: Active, Host: "claude", HostTool: "Edit", Change: change, After: trace.Sum([]byte(c.after))}},
		}
		if c.before != "" {
			r.Metadata.Atreides.Before = trace.Sum([]byte(c.before))
		}
		a, err := w.Append(r)
		if err != nil {
			t.Fatal(err)
		}
		head = a.Head
	}
	Update(t, root, func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			govstate.Key.Of(p).Trace = govstate.TraceHead{Seq: head.Seq, Hash: head.Hash}
			return nil
		})
	})
}
