package mcpserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/atreides-dev/atreides/internal/agenttools"
)

// The hook binary must not link the MCP SDK or net/http: their package
// init would cost every hook call about 1.6 ms.
func TestHookBinaryDoesNotLinkMCP(t *testing.T) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal("go env GOMOD:", err)
	}
	cmd := exec.Command("go", "list", "-deps", "./cmd/atreides")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(gomod)))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" || strings.HasPrefix(dep, "github.com/modelcontextprotocol/go-sdk") {
			t.Errorf("cmd/atreides links %s", dep)
		}
	}
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func connect(t *testing.T, root string, env map[string]string) *mcp.ClientSession {
	srv := New(root, func(k string) string { return env[k] }, "test")
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

func TestTools(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
	os.WriteFile(filepath.Join(root, ".atreides", "intents.yaml"), []byte(`intents:
  - id: auth
    title: Auth rework
    owned_scope: [src/auth/**]
    acceptance_criteria: [tests pass]
`), 0o644)
	a := connect(t, root, map[string]string{"ATREIDES_SESSION_ID": "s-a"})
	b := connect(t, root, map[string]string{"CLAUDE_CODE_SESSION_ID": "s-b"})

	tools, err := a.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "select_active_intent") || len(names) != 7+len(agenttools.Background()) {
		t.Fatalf("tools: %s", got)
	}
	if out, isErr := call(t, a, "select_active_intent", map[string]any{"intent_id": "auth"}); isErr || !strings.Contains(out, "Owned scope (you may write only here): src/auth/**") || !strings.Contains(out, "tests pass") {
		t.Fatalf("select: %v %s", isErr, out)
	}
	if out, isErr := call(t, b, "select_active_intent", map[string]any{"intent_id": "auth"}); !isErr || !strings.Contains(out, "held by session s-a") {
		t.Fatalf("second session: %v %s", isErr, out)
	}
	if out, isErr := call(t, b, "select_active_intent", map[string]any{"intent_id": "nope"}); !isErr || !strings.Contains(out, "open intents: auth") {
		t.Fatalf("unknown intent: %v %s", isErr, out)
	}
	if out, _ := call(t, a, "list_intents", nil); !strings.Contains(out, "held by session s-a") {
		t.Fatalf("list: %s", out)
	}
	if out, isErr := call(t, a, "request_scope_expansion", map[string]any{"intent_id": "auth", "paths": []string{"README.md"}, "reason": "docs"}); isErr || !strings.Contains(out, "request #1") {
		t.Fatalf("expansion: %v %s", isErr, out)
	}
	call(t, a, "todo_add", map[string]any{"title": "epic one", "level": "epic"})
	call(t, a, "todo_add", map[string]any{"title": "child", "parent": 1})
	if out, isErr := call(t, a, "todo_update", map[string]any{"id": 2, "status": "in_progress"}); isErr {
		t.Fatal(out)
	}
	// Levels are checked by package state, as for the command line.
	for _, bad := range []map[string]any{
		{"title": "orphan", "level": "subtask"},
		{"title": "epic below", "level": "epic", "parent": 2},
		{"title": "x", "priority": "urgent"},
	} {
		if out, isErr := call(t, a, "todo_add", bad); !isErr {
			t.Errorf("todo_add %v accepted: %s", bad, out)
		}
	}
	if out, isErr := call(t, a, "todo_add", map[string]any{"title": "fix parse", "parent": 2, "priority": "high", "file": "src/auth/p.go:12", "agent": "oracle"}); isErr || !strings.Contains(out, "#3 (subtask, high, src/auth/p.go:12, agent oracle)") {
		t.Fatalf("todo_add with details: %v %s", isErr, out)
	}
	if out, _ := call(t, a, "todo_list", nil); !strings.Contains(out, "  - #2 [in_progress] child (task)") || !strings.Contains(out, "    - #3 [pending] fix parse (subtask, high, src/auth/p.go:12, agent oracle)") {
		t.Fatalf("todo_list: %s", out)
	}
	if out, _ := call(t, a, "session_status", nil); !strings.Contains(out, "Active intent: auth") || !strings.Contains(out, "#1 [pending] epic one") {
		t.Fatalf("status: %s", out)
	}
}

func TestHostOf(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": "s"}, "claude"},
		{map[string]string{"CLAUDE_CODE_SESSION_ID": "s"}, "claude"},
		{map[string]string{"GEMINI_CLI": "1"}, "gemini"},
		{map[string]string{"GEMINI_CLI": "1", "CLAUDECODE": "1"}, ""}, // a child inherits its launcher's
		{map[string]string{"GEMINI_CLI": "1", "CLAUDECODE": "1", "ATREIDES_HOST": "gemini"}, "gemini"},
		{map[string]string{"ATREIDES_HOST": "codex"}, "codex"},
		{nil, ""},
	} {
		if got := HostOf(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: %q, want %q", c.env, got, c.want)
		}
	}
}
