package e2e

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

const governanceConfig = "governance:\n  enabled: true\n"

const intentsYAML = `intents:
  - id: docs
    title: Write the docs
    goal: Document the API
    status: open
    owned_scope: ["src/**"]
    acceptance_criteria: ["the API is documented"]
`

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeTool(path, content string) fa.ToolUse {
	return fa.ToolUse{Name: "Write", Input: map[string]any{"file_path": path, "content": content}}
}

func selectIntent(id string) fa.ToolUse {
	return fa.ToolUse{Name: "mcp__atreides__select_active_intent", Input: map[string]any{"intent_id": id}}
}

// TestGovernance drives the intent handshake through the real Claude Code:
// a write before an intent is selected is blocked; the agent selects the
// intent through atreides's MCP server and the write then lands; writes
// outside the owned scope (Write, and a shell redirection) are blocked; a
// session is refused an intent another holds; the ledger verifies and names
// the intent of each change.
func TestGovernance(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(writeTool("src/api.md", "# API\n")),
		fa.Call(selectIntent("docs")),
		fa.Call(writeTool("src/api.md", "# API\n\nGET /v1/things\n")),
		fa.Call(writeTool("outside.md", "out of scope\n")),
		fa.Call(fa.Bash("echo x > outside.txt")),
		fa.Text("Documented what was in scope."),
	}})
	p.WriteFile(".atreides/config.yaml", governanceConfig, 0o644)
	p.WriteFile(".atreides/intents.yaml", intentsYAML, 0o644)
	p.InstallAtreides()
	if !p.Exists(".mcp.json") {
		t.Fatal("install claude registered no MCP server in .mcp.json")
	}
	if out := p.Atreides("doctor"); !strings.Contains(out, ".mcp.json: atreides registered") {
		t.Errorf("doctor does not report the MCP server:\n%s", out)
	}
	p.RunClaude("document the API", RunOpts{})

	p.assertBlocked(fa.ToolID("main", 0, 0), "select_active_intent")
	if tr := p.toolResult(fa.ToolID("main", 1, 0)); tr.IsError || !strings.Contains(tr.Text, "Document the API") {
		t.Errorf("select_active_intent through MCP: error=%v %q", tr.IsError, tr.Text)
	}
	p.assertNotError(fa.ToolID("main", 2, 0))
	if !p.Exists("src/api.md") {
		t.Error("the write inside the scope did not land")
	}
	p.assertBlocked(fa.ToolID("main", 3, 0), "outside the owned scope")
	p.assertBlocked(fa.ToolID("main", 4, 0), "outside the owned scope")
	for _, f := range []string{"outside.md", "outside.txt"} {
		if p.Exists(f) {
			t.Errorf("%s was written outside the scope", f)
		}
	}

	// The first session's end released its lease. Another agent takes the
	// intent, and a new claude session is refused it, with the holder named.
	// This run keeps Claude's permission layer on: atreides's hook allows
	// its own MCP tools (Claude would otherwise refuse them in -p). The
	// server binds the calls to the claude session through
	// $CLAUDE_CODE_SESSION_ID, which session_status reports.
	p.Atreides("intent", "select", "docs", "--session", "other-agent")
	q := *p
	q.Fake = fa.Start(t, fa.Script{Steps: []fa.Step{
		fa.Call(selectIntent("docs")),
		fa.Call(fa.ToolUse{Name: "mcp__atreides__session_status", Input: map[string]any{}}),
		fa.Text("It is taken."),
	}})
	r := q.RunClaude("help with the docs", RunOpts{NoSkipPermissions: true})
	if tr := q.toolResult(fa.ToolID("main", 0, 0)); !strings.Contains(tr.Text, "held by session other-agent") {
		t.Errorf("second session was not refused the held intent: %q", tr.Text)
	}
	if tr := q.toolResult(fa.ToolID("main", 1, 0)); !strings.Contains(tr.Text, "Session "+r.SessionID()+" (from $CLAUDE_CODE_SESSION_ID)") {
		t.Errorf("session_status is not bound to the claude session %s through $CLAUDE_CODE_SESSION_ID: %q", r.SessionID(), tr.Text)
	}

	// Uninstall removes exactly the server it registered.
	p.WriteFile(".mcp.json", strings.Replace(readFile(t, p.Path(".mcp.json")), `"mcpServers": {`,
		`"mcpServers": {"mine": {"command": "my-server"},`, 1), 0o644)
	p.Atreides("install", "claude", "--project")
	p.Atreides("uninstall", "claude", "--project")
	if got := readFile(t, p.Path(".mcp.json")); strings.Contains(got, `"atreides"`) || !strings.Contains(got, `"mine"`) {
		t.Errorf("after uninstall .mcp.json is:\n%s", got)
	}

	if out := p.Atreides("trace", "verify"); !strings.Contains(out, "ledger OK") {
		t.Errorf("trace verify: %s", out)
	}
	var records []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(p.Atreides("trace", "show", "--json")), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("trace show --json line is not JSON: %v: %s", err, line)
		}
		records = append(records, r)
	}
	if len(records) == 0 {
		t.Fatal("no trace record for the write")
	}
	for _, r := range records {
		b, _ := json.Marshal(r)
		if !strings.Contains(string(b), `"docs"`) || !strings.Contains(string(b), "src/api.md") {
			t.Errorf("trace record does not name the intent and file: %s", b)
		}
	}
}

// TestGovernanceDelegationDepth: with a delegation limit of 1, a subagent
// that tries to delegate again is refused with the path in the message.
func TestGovernanceDelegationDepth(t *testing.T) {
	requireAtreides(t)
	agent := func(prompt string) fa.ToolUse {
		return fa.ToolUse{Name: "Agent", Input: map[string]any{
			"description": "delegate", "prompt": prompt,
			"subagent_type": "general-purpose", "run_in_background": false}}
	}
	p := NewProject(t, fa.Script{
		Steps: []fa.Step{fa.Call(agent("SUBTASK: look around")), fa.Text("The subagent reported back.")},
		Agents: []fa.AgentScript{{
			Name: "sub", Match: fa.FirstUserMatches(`SUBTASK:`),
			Steps: []fa.Step{fa.Call(agent("NESTED: go deeper")), fa.Text("Could not delegate further.")},
		}},
	})
	p.WriteFile(".atreides/config.yaml", "governance:\n  enabled: true\ndelegation:\n  max_depth: 1\n", 0o644)
	p.WriteFile(".atreides/intents.yaml", intentsYAML, 0o644)
	p.InstallAtreides()
	p.RunClaude("delegate the survey", RunOpts{})
	tr, _, ok := p.Fake.ToolResult(fa.ToolID("sub", 0, 0))
	if !ok {
		t.Fatalf("the subagent's delegation reached no tool result; requests:\n%s", p.Fake.Summary())
	}
	if !tr.IsError || !strings.Contains(tr.Text, "Delegation refused") || !strings.Contains(tr.Text, "main → general-purpose → general-purpose") {
		t.Errorf("nested delegation not refused with its path: error=%v %q", tr.IsError, tr.Text)
	}
}
