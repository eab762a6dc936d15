package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/agenttools"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
)

// TestGeminiMCPTools: after `atreides install gemini`, the real Gemini CLI
// starts atreides's MCP server from the project's settings, declares every
// agent tool to the model as mcp_atreides_<tool>, and a todo_add call
// round-trips: its result reaches the next request and the todo is in
// `atreides todo list`.
func TestGeminiMCPTools(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(fg.Call{Name: "mcp_atreides_todo_add", Args: map[string]any{"title": "added over gemini mcp"}}),
		fg.Do(fg.Call{Name: "mcp_atreides_session_status", Args: map[string]any{}}),
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
	if len(frs) != 2 || !strings.Contains(frs[0].Text(), "added todo #1 (task): added over gemini mcp") {
		t.Fatalf("todo_add's result did not reach the model: %+v", frs)
	}
	// Gemini CLI tells its MCP server nothing of the session: the server
	// is bound to it by the host process its hooks ran under (issue 36:
	// on main it took the project's most recently active session).
	if st := frs[1].Text(); !strings.Contains(st, "(named by the host)") || !strings.Contains(st, "Session "+onlySession(t, p)) {
		t.Errorf("session_status over Gemini's MCP is not bound to the calling session:\n%s", st)
	}
	if list := p.Atreides("todo", "list"); !strings.Contains(list, "added over gemini mcp") {
		t.Errorf("todo list:\n%s", list)
	}
}

// TestCodexMCPToolsUntrusted: Codex does not read an untrusted project's
// .codex/config.toml, so a project install offers no tools until the
// project is trusted (install says so).
func TestCodexMCPToolsUntrusted(t *testing.T) {
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{fo.Text("done")}})
	out := p.Atreides("install", "codex", "--project")
	if !strings.Contains(out, "installed mcp_servers.atreides") || !strings.Contains(out, "trust_level") {
		t.Fatalf("install codex --project:\n%s", out)
	}
	p.Run("hello")
	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no model request")
	}
	if offered := namespaceTools(main[0].Body.Tools, "mcp__atreides"); len(offered) != 0 {
		t.Errorf("an untrusted project's MCP server was started: %v", offered)
	}
}

// TestCodexMCPTools: after `atreides install codex`, the real Codex CLI
// starts atreides's MCP server from config.toml, offers the model every
// agent tool in the namespace mcp__atreides, and a todo_add call
// round-trips: its result reaches the next request and the todo is in
// `atreides todo list`. User scope writes $HOME/.codex/config.toml (next
// to the provider settings the harness wrote there); project scope writes
// .codex/config.toml, which Codex reads in a trusted project.
func TestCodexMCPTools(t *testing.T) {
	codexCLI.require(t)
	for _, scope := range []string{"--user", "--project"} {
		t.Run(strings.TrimPrefix(scope, "--"), func(t *testing.T) {
			p := newCodexProject(t, fo.Script{Steps: []fo.Step{
				{Call: &fo.Call{Namespace: "mcp__atreides", Name: "todo_add", Arguments: map[string]any{"title": "added over codex mcp"}}},
				{Call: &fo.Call{Namespace: "mcp__atreides", Name: "session_status", Arguments: map[string]any{}}},
				fo.Text("done"),
			}})
			if scope == "--project" {
				trustCodexProject(t, p)
			}
			out := p.Atreides("install", "codex", scope)
			if !strings.Contains(out, "installed mcp_servers.atreides") {
				t.Fatalf("install codex did not register the MCP server:\n%s", out)
			}
			p.Run("add a todo")

			main := p.Fake.Main()
			if len(main) == 0 {
				t.Fatal("no model request")
			}
			offered := namespaceTools(main[0].Body.Tools, "mcp__atreides")
			for _, tl := range agenttools.All() {
				if !slices.Contains(offered, tl.Name) {
					t.Errorf("%s not offered in the namespace mcp__atreides; offered: %v", tl.Name, offered)
				}
			}
			if out, ok := p.Fake.CallOutput(fo.CallID(0)); !ok || !strings.Contains(out, "added todo #1 (task): added over codex mcp") {
				t.Errorf("todo_add's result did not reach the model: %q (%v)", out, ok)
			}
			if list := p.Atreides("todo", "list"); !strings.Contains(list, "added over codex mcp") {
				t.Errorf("todo list:\n%s", list)
			}
			// Codex tells its MCP server nothing of the session: the server
			// is bound to it by the host process its hooks ran under (issue
			// 36: on main it took the project's most recently active one).
			if st, _ := p.Fake.CallOutput(fo.CallID(1)); !strings.Contains(st, "(named by the host)") || !strings.Contains(st, "Session "+onlySession(t, p)) {
				t.Errorf("session_status over Codex's MCP is not bound to the calling session:\n%s", st)
			}
		})
	}
}

// trustCodexProject marks the project trusted in the user's config.toml,
// as Codex does when the user trusts it.
func trustCodexProject(t *testing.T, p *codexProject) {
	t.Helper()
	path := p.Path("../home/.codex/config.toml")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "\n[projects.%q]\ntrust_level = \"trusted\"\n", p.Dir); err != nil {
		t.Fatal(err)
	}
}

// namespaceTools are the names of the tools declared inside the namespace
// tool called ns in a Responses request's tools.
func namespaceTools(tools []json.RawMessage, ns string) []string {
	var names []string
	for _, raw := range tools {
		var tool struct {
			Name  string `json:"name"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		if json.Unmarshal(raw, &tool) != nil || tool.Name != ns {
			continue
		}
		for _, x := range tool.Tools {
			names = append(names, x.Name)
		}
	}
	return names
}

// onlySession is the one session atreides recorded in the project.
func onlySession(t *testing.T, p interface{ Atreides(...string) string }) string {
	t.Helper()
	var doc struct {
		Sessions []struct {
			ID string `json:"id"`
		} `json:"sessions"`
	}
	out := p.Atreides("status", "--json")
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Sessions) != 1 {
		t.Fatalf("atreides status --json (want one session): %v\n%s", err, out)
	}
	return doc.Sessions[0].ID
}
