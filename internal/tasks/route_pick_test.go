package tasks

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

func TestPickAgent(t *testing.T) {
	o := RouteOptions{Default: RouteAgents{Research: "explore", Implement: "build"},
		Languages: map[string]RouteAgents{"lean": {Research: "librarian", Implement: "prover"}}}
	roster := agents.Roster{{ID: "prover", Model: map[string]string{"claude": "opus-x"}}, {ID: "librarian"}}
	task := &taskboard.Task{Language: "lean"}
	if p := PickAgent(o, roster, "claude", OpImplement, task, nil); p.Agent != "prover" || p.Model != "opus-x" || p.Language != "lean" {
		t.Errorf("implement: %+v", p)
	}
	if p := PickAgent(o, roster, "gemini", OpImplement, task, nil); p.Agent != "prover" || p.Model != "" {
		t.Errorf("implement on another host: %+v", p)
	}
	if p := PickAgent(o, roster, "claude", OpResearch, &taskboard.Task{Title: "fix main.py"}, nil); p.Agent != "explore" {
		t.Errorf("research, no route for python: %+v", p)
	}
}

func TestOperationOf(t *testing.T) {
	for prompt, want := range map[string]Operation{
		"Fix the nil dereference in parser.go":                   OpImplement,
		"Find where the cache is built. Then add a test for it.": OpImplement,
		"- rename Foo to Bar":                                    OpImplement,
		"1. Update the docs":                                     OpImplement,
		"Where is the config read? Do not change anything.":      OpResearch,
		"Explain how the fix for #12 works":                      OpResearch,
		"":                                                       OpResearch,
	} {
		if got := OperationOf(prompt); got != want {
			t.Errorf("OperationOf(%q) = %s, want %s", prompt, got, want)
		}
	}
}

// TestPickFor: a delegation without an agent is routed with the
// project's configuration (the built-in one here): a Go change goes to
// the implementing agent, a question to the researching one.
func TestPickFor(t *testing.T) {
	root := t.TempDir()
	p := PickFor(root, "claude", "speed up", "Refactor handler.go to cache the lookups")
	if p.Agent != "build" || p.Language != "go" || !strings.Contains(p.Why, "implement: the prompt asks for a change") {
		t.Errorf("%+v", p)
	}
	if p := PickFor(root, "claude", "", "How does the Dockerfile pick its base image?"); p.Agent != "librarian" || p.Operation != OpResearch {
		t.Errorf("%+v", p)
	}
}

// TestLogMissingTools: a missing server is logged once however often the
// language is routed; found servers are not logged; after a fix it
// recurs once.
func TestLogMissingTools(t *testing.T) {
	checks := CheckTools([]string{"lean-lsp", "loogle"}, []string{"loogle", "other"})
	if len(checks) != 2 || checks[0].Available || !checks[1].Available || checks[0].Fallback == "" || checks[1].Fallback != "" {
		t.Fatalf("%+v", checks)
	}
	b := &taskboard.Tasks{}
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	if got := LogMissingTools(b, "lean", "claude", "prover", checks, now); len(got) != 1 {
		t.Fatalf("first: %v", got)
	}
	if got := LogMissingTools(b, "lean", "claude", "prover", checks, now.Add(time.Minute)); len(got) != 0 || b.Errors[0].Count != 1 {
		t.Fatalf("second: %v, %+v", got, b.Errors)
	}
	e := &b.Errors[0]
	if e.Type != "tool_failure" || e.Severity != "low" || !strings.Contains(e.Message, "works without it") || e.Context.Agent != "prover" {
		t.Errorf("%+v", e)
	}
	markFixed(e, now.Add(2*time.Minute))
	if got := LogMissingTools(b, "lean", "claude", "prover", checks, now.Add(3*time.Minute)); len(got) != 1 || b.Errors[0].Fix != FixRecurred {
		t.Errorf("after a fix: %v, %+v", got, b.Errors)
	}
}

// TestToolsNote: a routed language whose MCP server the host lacks is
// named to the agent with the fallback and logged once to the project's
// error log; a host that has it, or whose configuration is not read,
// gives no note.
func TestToolsNote(t *testing.T) {
	root := newRepo(t).Root
	p := Pick{Routing: Routing{Language: "lean"}, Agent: "build", MCP: []string{"lean-lsp"}}
	lacks := func() ([]string, bool, error) { return []string{"other"}, true, nil }
	note := ToolsNote(context.Background(), root, "somehost", p, lacks)
	if !strings.Contains(note, `MCP server lean-lsp of lean tasks is not configured in somehost: the agent works without it`) {
		t.Errorf("note: %q", note)
	}
	ToolsNote(context.Background(), root, "somehost", p, lacks)
	repo := Open(root, Options{})
	_ = repo.View(context.Background(), func(b *taskboard.Tasks) error {
		if len(b.Errors) != 1 || b.Errors[0].Count != 1 || b.Errors[0].Type != "tool_failure" {
			t.Errorf("errors: %+v", b.Errors)
		}
		return nil
	})
	has := func() ([]string, bool, error) { return []string{"lean-lsp"}, true, nil }
	unknown := func() ([]string, bool, error) { return nil, false, nil }
	if n := ToolsNote(context.Background(), root, "somehost", p, has) + ToolsNote(context.Background(), root, "somehost", p, unknown); n != "" {
		t.Errorf("configured or unchecked: %q", n)
	}
}

// TestToolsNoteUnreadable: a host configuration that cannot be read
// (over the size bound, broken) says nothing of which servers it has: the
// agent is told the check failed, and no missing server is logged.
func TestToolsNoteUnreadable(t *testing.T) {
	root := newRepo(t).Root
	p := Pick{Routing: Routing{Language: "lean"}, Agent: "build", MCP: []string{"lean-lsp"}}
	broken := func() ([]string, bool, error) {
		return []string{"other"}, true, errors.New("/home/u/.claude.json: unexpected EOF")
	}
	note := ToolsNote(context.Background(), root, "somehost", p, broken)
	if !strings.Contains(note, "not checked") || !strings.Contains(note, "unexpected EOF") || strings.Contains(note, "is not configured") {
		t.Errorf("note: %q", note)
	}
	_ = Open(root, Options{}).View(context.Background(), func(b *taskboard.Tasks) error {
		if len(b.Errors) != 0 {
			t.Errorf("a server was logged missing from a configuration that could not be read: %+v", b.Errors)
		}
		return nil
	})
}
