package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/todos"
)

// governedProject is a project with one intent, "auth".
func governedProject(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".atreides"), 0o755); err != nil {
		t.Fatal(err)
	}
	intents := "intents:\n  - id: auth\n    title: Auth rework\n    owned_scope: [src/auth/**]\n    acceptance_criteria: [tests pass]\n"
	if err := os.WriteFile(filepath.Join(root, ".atreides", "intents.yaml"), []byte(intents), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// connect is an MCP client of the project's server, running for the
// session as Claude Code's server does (its session id in the server's
// environment).
func connect(t *testing.T, root, session string) *mcp.ClientSession {
	t.Helper()
	srv := New(root, "claude", func(k string) string { return map[string]string{"CLAUDE_CODE_SESSION_ID": session}[k] }, "test")
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestArgumentCaps: an argument over its cap is the call's error, naming
// the argument, and the call changes nothing.
func TestArgumentCaps(t *testing.T) {
	root := governedProject(t)
	cs := connect(t, root, "s-a")
	paths := func(n, size int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = strings.Repeat("p", size)
		}
		return out
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"request_scope_expansion", map[string]any{"intent_id": "auth", "paths": paths(257, 4), "reason": "r"}, "paths has 257 items; at most 256"},
		{"request_scope_expansion", map[string]any{"intent_id": "auth", "paths": paths(1, 4097), "reason": "r"}, "paths[0] is 4097 characters; at most 4096"},
		{"request_scope_expansion", map[string]any{"intent_id": "auth", "paths": paths(1, 4), "reason": strings.Repeat("r", 65537)}, "reason is 65537 characters; at most 65536"},
		{"todo_add", map[string]any{"title": strings.Repeat("t", 4097)}, "title is 4097 characters; at most 4096"},
		{"todo_add", map[string]any{"title": "t", "file": strings.Repeat("f", 4097)}, "file is 4097 characters"},
		{"task_create", map[string]any{"title": "t", "description": strings.Repeat("d", 65537)}, "description is 65537 characters"},
		{"task_create", map[string]any{"title": "t", "blocked_by": make([]any, 257)}, "blocked_by has 257 items"},
		{"error_record", map[string]any{"type": "build", "message": strings.Repeat("m", 65537)}, "message is 65537 characters"},
		{"background_task", map[string]any{"description": "d", "prompt": strings.Repeat("p", 65537), "agent": "explore"}, "prompt is 65537 characters"},
		{"background_task", map[string]any{"description": "d", "prompt": "p", "agent": "explore", "skills": paths(257, 1)}, "skills has 257 items"},
		{"select_active_intent", map[string]any{"intent_id": strings.Repeat("i", 4097)}, "intent_id is 4097 characters"},
	} {
		out, isErr := call(t, cs, tc.tool, tc.args)
		if !isErr || !strings.Contains(out, tc.want) {
			t.Errorf("%s: %v %.200q, want an error with %q", tc.tool, isErr, out, tc.want)
		}
	}
	// Nothing was recorded: the refused calls left no trace.
	p := loadProject(t, root)
	if len(todos.Key.Of(p).List) != 0 || len(govstate.Key.Of(p).Expansions) != 0 || len(bgtasks.Key.Of(p).Tasks) != 0 || len(govstate.Key.Of(p).Locks) != 0 {
		t.Errorf("refused calls changed the project: %d todos, %d requests, %d tasks, %d leases", len(todos.Key.Of(p).List), len(govstate.Key.Of(p).Expansions), len(bgtasks.Key.Of(p).Tasks), len(govstate.Key.Of(p).Locks))
	}
	// At the caps, the call is served.
	if out, isErr := call(t, cs, "request_scope_expansion", map[string]any{"intent_id": "auth", "paths": paths(256, 4096), "reason": "r"}); isErr {
		t.Errorf("request at the caps: %.200s", out)
	}
}

func loadProject(t *testing.T, root string) *state.Project {
	t.Helper()
	var p *state.Project
	err := store.Open(project.StateDir(root)).View(context.Background(), func(tx *store.Tx) error {
		var err error
		p, err = state.LoadProject(tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProjectRecordFull fills the project record through scope requests
// at the argument caps until the store refuses the write: the call that
// would pass the record's limit fails with an error the agent reads, and
// everything the record held (a lease, a todo, the requests before) is
// still there. Before, five calls pushed the record past the size its
// reader accepts and the whole project state was lost.
func TestProjectRecordFull(t *testing.T) {
	root := governedProject(t)
	cs := connect(t, root, "s-a")
	if out, isErr := call(t, cs, "todo_add", map[string]any{"title": "keep me"}); isErr {
		t.Fatal(out)
	}
	if out, isErr := call(t, cs, "select_active_intent", map[string]any{"intent_id": "auth"}); isErr {
		t.Fatal(out)
	}
	paths := make([]any, 256)
	for i := range paths {
		paths[i] = strings.Repeat("x", 4096)
	}
	args := map[string]any{"intent_id": "auth", "paths": paths, "reason": "fill"}
	accepted, refusal := 0, ""
	for i := 0; i < 40 && refusal == ""; i++ { // each call adds 1 MiB; the limit is 16 MiB
		if out, isErr := call(t, cs, "request_scope_expansion", args); isErr {
			refusal = out
		} else {
			accepted++
		}
	}
	if !strings.Contains(refusal, "over its size limit") || !strings.Contains(refusal, "nothing was written") {
		t.Fatalf("after %d accepted requests: refusal %.300q, want the size limit's", accepted, refusal)
	}
	if accepted < 10 {
		t.Errorf("only %d requests of 1 MiB were accepted before the limit", accepted)
	}
	p := loadProject(t, root)
	if p.Salvaged != nil {
		t.Errorf("the project record was salvaged: %+v", p.Salvaged)
	}
	if len(todos.Key.Of(p).List) != 1 || todos.Key.Of(p).List[0].Title != "keep me" {
		t.Errorf("todos after the refusal: %+v", todos.Key.Of(p).List)
	}
	if l := govstate.Key.Of(p).Lock("auth"); l == nil || l.Session != "s-a" {
		t.Errorf("the lease after the refusal: %+v", l)
	}
	if len(govstate.Key.Of(p).Expansions) != accepted {
		t.Errorf("%d requests kept, %d were accepted", len(govstate.Key.Of(p).Expansions), accepted)
	}
	if out, isErr := call(t, cs, "todo_list", nil); isErr || !strings.Contains(out, "keep me") {
		t.Errorf("todo_list after the refusal: %v %q", isErr, out)
	}
}

// TestBackgroundTasksAreTheirSessions: a session reads, cancels and
// resumes only its own background tasks.
func TestBackgroundTasksAreTheirSessions(t *testing.T) {
	root := governedProject(t)
	now := time.Now().UTC()
	err := store.Open(project.StateDir(root)).Update(context.Background(), func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			bgtasks.Key.Of(p).Tasks = []bgtasks.Task{
				{ID: "bg-1", Parent: "s-b", Host: "claude", Runner: "process", Agent: "explore", Description: "theirs", Prompt: "secret prompt", Status: background.Completed, Created: now, Ended: now, Child: "c1", Result: "their result"},
				{ID: "bg-2", Parent: "s-a", Host: "claude", Runner: "process", Agent: "explore", Description: "mine", Prompt: "p", Status: background.Completed, Created: now, Ended: now, Result: "my result"},
			}
			bgtasks.Key.Of(p).NextID = 2
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, root, "s-a")
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"background_output", map[string]any{"task_id": "bg-1"}},
		{"background_cancel", map[string]any{"task_id": "bg-1"}},
		{"delegate_task", map[string]any{"prompt": "go on", "run_in_background": true, "resume": "bg-1"}},
	} {
		out, isErr := call(t, cs, tc.tool, tc.args)
		if !isErr || !strings.Contains(out, "task bg-1 belongs to another session") || strings.Contains(out, "their result") {
			t.Errorf("%s %v: %v %q, want the other session's task refused", tc.tool, tc.args, isErr, out)
		}
	}
	if out, isErr := call(t, cs, "background_output", nil); isErr || !strings.Contains(out, "my result") || strings.Contains(out, "bg-1") {
		t.Errorf("background_output of all mine: %v %q", isErr, out)
	}
	if out, isErr := call(t, cs, "background_output", map[string]any{"task_id": "bg-2"}); isErr || !strings.Contains(out, "my result") {
		t.Errorf("background_output of my task: %v %q", isErr, out)
	}
	p := loadProject(t, root)
	if len(bgtasks.Key.Of(p).Tasks) != 2 || bgtasks.Key.Of(p).Tasks[0].Status != background.Completed {
		t.Errorf("the other session's task changed: %+v", bgtasks.Key.Of(p).Tasks)
	}
}
