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

// TestServer: New serves every agent tool over MCP, bound to the session
// the environment names and naming tools as the host calls them.
func TestServer(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
	srv := New(root, "gemini", func(k string) string { return map[string]string{"ATREIDES_SESSION_ID": "s-a"}[k] }, "test")
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != len(agenttools.All()) {
		t.Errorf("%d tools served, want %d", len(tools.Tools), len(agenttools.All()))
	}
	if out, isErr := call(t, cs, "todo_add", map[string]any{"title": "over mcp"}); isErr || out != "added todo #1 (task): over mcp" {
		t.Errorf("todo_add = %q %v", out, isErr)
	}
	if out, isErr := call(t, cs, "todo_add", map[string]any{"titel": "typo"}); !isErr || !strings.Contains(out, "title") {
		t.Errorf("todo_add without title = %q %v", out, isErr)
	}
	if out, _ := call(t, cs, "session_status", nil); !strings.Contains(out, "Session s-a (from $ATREIDES_SESSION_ID)") || !strings.Contains(out, "call mcp_atreides_select_active_intent before writing") {
		t.Errorf("session_status = %q", out)
	}
}

func TestHostFromEnv(t *testing.T) {
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
		if got := HostFromEnv(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: %q, want %q", c.env, got, c.want)
		}
	}
}
