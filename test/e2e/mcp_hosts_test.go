package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/agenttools"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
)

// TestGeminiMCPTools: after `atreides install gemini`, the real Gemini CLI
// starts atreides's MCP server from the project's settings, declares every
// agent tool to the model as mcp_atreides_<tool>, and a todo_add call
// round-trips: its result reaches the next request and the todo is in
// `atreides todo list`.
func TestGeminiMCPTools(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(fg.Call{Name: "mcp_atreides_todo_add", Args: map[string]any{"title": "added over gemini mcp"}}),
		fg.Text("done"),
	}})
	out := p.Atreides("install", "gemini")
	if !strings.Contains(out, "installed mcpServers.atreides") {
		t.Fatalf("install gemini did not register the MCP server:\n%s", out)
	}
	p.Run("add a todo")

	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no model request")
	}
	var declared []string
	for _, tl := range main[0].Body.Tools {
		for _, d := range tl.FunctionDeclarations {
			declared = append(declared, d.Name)
		}
	}
	for _, tl := range agenttools.All() {
		if !slices.Contains(declared, "mcp_atreides_"+tl.Name) {
			t.Errorf("mcp_atreides_%s not declared to the model; declared: %v", tl.Name, declared)
		}
	}
	frs := p.Fake.FunctionResponses()
	if len(frs) != 1 || !strings.Contains(frs[0].Text(), "added todo #1 (task): added over gemini mcp") {
		t.Errorf("todo_add's result did not reach the model: %+v", frs)
	}
	if list := p.Atreides("todo", "list"); !strings.Contains(list, "added over gemini mcp") {
		t.Errorf("todo list:\n%s", list)
	}
}
