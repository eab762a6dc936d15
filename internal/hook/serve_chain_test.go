package hook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/todos"
)

// created is OpenCode's session.created bus event for a session, with its
// parent and agent when it is a child (1.18.33's task tool creates the
// child with parentID, agent and a "(@agent subagent)" title).
func created(dir, id, parent, agent string) map[string]any {
	info := map[string]any{"id": id, "directory": dir}
	if parent != "" {
		info["parentID"], info["title"] = parent, "work (@"+agent+" subagent)"
		if agent != "" {
			info["agent"] = agent
		}
	}
	return map[string]any{"directory": dir, "input": map[string]any{"event": map[string]any{"id": "e" + id, "type": "session.created",
		"properties": map[string]any{"sessionID": id, "info": info}}}}
}

// task is the task tool's tool.execute.before in session, starting an
// agent of type agent.
func task(dir, session, call, agent string) map[string]any {
	return map[string]any{"directory": dir,
		"input":  map[string]any{"tool": "task", "sessionID": session, "callID": call},
		"output": map[string]any{"args": map[string]any{"description": "d", "prompt": "p", "subagent_type": agent}}}
}

// TestServeOpenCodeNestedDelegation: OpenCode's child sessions at every
// depth are subagents of the root session, so the delegation limits see
// the whole path: a delegation back to an agent type already on the path
// is a cycle, one past delegation.max_depth (3) is refused; and both hold
// after serve restarts, from the links kept in the store.
func TestServeOpenCodeNestedDelegation(t *testing.T) {
	dir := servedProject(t)
	c := startServe(t, dir)
	allowed := func(c *serveClient, session, call, agent string) {
		t.Helper()
		if r := c.call("tool.before", task(dir, session, call, agent)); r["block"] != nil {
			t.Fatalf("%s delegating to %s: %v", session, agent, r["block"])
		}
	}
	refused := func(c *serveClient, session, call, agent, why string) {
		t.Helper()
		r := c.call("tool.before", task(dir, session, call, agent))
		if b := fmt.Sprint(r["block"]); !strings.Contains(b, why) {
			t.Fatalf("%s delegating to %s: %v, want refused (%s)", session, agent, r, why)
		}
	}
	c.call("event", created(dir, "ses_a", "", ""))
	allowed(c, "ses_a", "t1", "general")
	c.call("event", created(dir, "ses_b", "ses_a", "general"))
	allowed(c, "ses_b", "t2", "explore")
	c.call("event", created(dir, "ses_c", "ses_b", "explore"))
	refused(c, "ses_c", "t3", "general", "would be a cycle")
	allowed(c, "ses_c", "t4", "build")
	c.call("event", created(dir, "ses_d", "ses_c", "build"))
	refused(c, "ses_d", "t5", "plan", "over the limit of 3")

	// A new serve (OpenCode restarted it, or another instance) knows the
	// chain from the store.
	c.in.Close()
	if err := c.returned(); err != nil {
		t.Fatal(err)
	}
	c2 := startServe(t, dir)
	refused(c2, "ses_d", "t6", "plan", "over the limit of 3")
	refused(c2, "ses_c", "t7", "explore", "would be a cycle")
	allowed(c2, "ses_a", "t8", "explore")
}

// TestServeOpenCodePlacedContextSurvivesRestart: context placed into the
// conversation at a message (here the "remember:" acknowledgement, which
// chat.message cannot carry) is given to the plugin again on every later
// request, by a restarted serve too: OpenCode keeps none of it.
func TestServeOpenCodePlacedContextSurvivesRestart(t *testing.T) {
	dir := servedProject(t)
	c := startServe(t, dir)
	c.call("event", created(dir, "ses_a", "", ""))
	c.call("chat.message", map[string]any{"directory": dir, "input": map[string]any{"sessionID": "ses_a"},
		"output": map[string]any{"message": map[string]any{}, "parts": []any{map[string]any{"type": "text", "text": "remember: the cache lives in bbolt"}}}})
	transform := func(c *serveClient, msgs ...string) string {
		t.Helper()
		var list []any
		for i, m := range msgs {
			role := "user"
			if i%2 == 1 {
				role = "assistant"
			}
			list = append(list, map[string]any{"id": m, "role": role})
		}
		r := c.call("messages.transform", map[string]any{"directory": dir, "input": map[string]any{"sessionID": "ses_a"}, "output": map[string]any{"messages": list}})
		return fmt.Sprint(r["inject"])
	}
	first := transform(c, "msg_1")
	if !strings.Contains(first, "anchor #1") || !strings.Contains(first, "msg_1") {
		t.Fatalf("first request's injections: %s", first)
	}
	c.in.Close()
	if err := c.returned(); err != nil {
		t.Fatal(err)
	}
	c2 := startServe(t, dir)
	if again := transform(c2, "msg_1", "msg_2", "msg_3"); again != first {
		t.Errorf("after a restart the request carries %s, want %s", again, first)
	}
}

// TestServeOpenCodeEscIsAnInterrupt: the user's Esc ends OpenCode's turn
// with session.error MessageAbortedError, then session.idle: the idle is
// an interrupt, so an open todo does not send the agent straight back to
// work; the user's next prompt ends the interrupt.
func TestServeOpenCodeEscIsAnInterrupt(t *testing.T) {
	dir := servedProject(t)
	c := startServe(t, dir)
	bus := func(typ string, props map[string]any) map[string]any {
		props["sessionID"] = "s1"
		return map[string]any{"directory": dir, "input": map[string]any{"event": map[string]any{"id": "e", "type": typ, "properties": props}}}
	}
	c.call("event", created(dir, "s1", "", ""))
	prompt := func(text string) {
		c.call("chat.message", map[string]any{"directory": dir, "input": map[string]any{"sessionID": "s1"},
			"output": map[string]any{"message": map[string]any{}, "parts": []any{map[string]any{"type": "text", "text": text}}}})
	}
	prompt("Write the report.")
	addTodo(t, dir, "s1", "write the report")
	c.call("event", bus("session.error", map[string]any{"error": map[string]any{"name": "MessageAbortedError", "data": map[string]any{"message": "The operation was aborted."}}}))
	if r := c.call("event", bus("session.idle", map[string]any{})); r["continue"] != nil {
		t.Fatalf("the idle after Esc asks for a continuation: %v", r["continue"])
	}
	prompt("Go on.")
	if r := c.call("event", bus("session.idle", map[string]any{})); !strings.Contains(fmt.Sprint(r["continue"]), "write the report") {
		t.Errorf("after the next prompt, an idle with the todo open: %v", r)
	}
}

// addTodo adds a todo of the session between requests, as 'atreides todo
// add' run by its agent adds it.
func addTodo(t *testing.T, dir, session, title string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), serveBound)
	defer cancel()
	err := store.Open(filepath.Join(dir, ".atreides")).Update(ctx, func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			_, err := todos.Add(p, todos.New{Title: title, Session: session}, time.Now().UTC())
			return err
		})
	})
	if err != nil {
		t.Fatalf("todo add: %v", err)
	}
}

// TestServeOpenCodeChildIdentityAndSkills: a child session is told it is
// the subagent it runs as, not the lead agent, and gets no list of the
// lead's todos; OpenCode's own explore gets the skills attached to the
// roster's explore (once, in its conversation), while atreides-explore,
// whose injected prompt carries them, gets none twice.
func TestServeOpenCodeChildIdentityAndSkills(t *testing.T) {
	const mark = "TRIAGE-SKILL-5d1e: bisect the last change first."
	dir := servedProject(t)
	writeFile(t, filepath.Join(dir, ".atreides/skills/triage/SKILL.md"), "---\nname: triage\ndescription: How to triage.\n---\n"+mark+"\n")
	writeFile(t, filepath.Join(dir, ".atreides/config.yaml"), "version: 1\nagents:\n  explore:\n    skills: [triage]\n")
	c := startServe(t, dir)
	c.call("event", created(dir, "ses_a", "", ""))
	addTodo(t, dir, "ses_a", "ship the release")
	request := func(session string) (system, inject string) {
		t.Helper()
		r := c.call("messages.transform", map[string]any{"directory": dir, "input": map[string]any{"sessionID": session},
			"output": map[string]any{"messages": []any{map[string]any{"id": "msg_" + session, "role": "user"}}}})
		s := c.call("system.transform", map[string]any{"directory": dir, "input": map[string]any{"sessionID": session}, "output": map[string]any{"system": []string{"You are opencode"}}})
		return fmt.Sprint(s["system"]), fmt.Sprint(r["inject"])
	}
	if sys, _ := request("ses_a"); !strings.Contains(sys, "You are Muad'Dib, the lead agent") || !strings.Contains(sys, "ship the release") {
		t.Fatalf("the lead's system prompt: %s", sys)
	}
	for _, tc := range []struct {
		child, agent, who string
		skill             bool
	}{
		{"ses_b", "explore", "You are Explore (codebase search), a subagent", true},
		{"ses_c", "atreides-explore", "You are Explore (codebase search), a subagent", false},
		{"ses_d", "general", "You are general, a subagent", false},
	} {
		c.call("event", created(dir, tc.child, "ses_a", tc.agent))
		sys, inject := request(tc.child)
		if !strings.Contains(sys, tc.who) || strings.Contains(sys, "You are Muad'Dib") || strings.Contains(sys, "ship the release") {
			t.Errorf("%s (%s): system prompt %s", tc.child, tc.agent, sys)
		}
		if got := strings.Count(inject, mark); got != map[bool]int{true: 1}[tc.skill] {
			t.Errorf("%s (%s): the skill is in the conversation %d times: %s", tc.child, tc.agent, got, inject)
		}
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestServeOpenCodePrimaryAgentSkills: a main session's prompt answered
// by OpenCode's own plan (its primary agent; the agent of the user
// message OpenCode made) gets the skills attached to the roster's plan,
// once; a prompt answered by build, which has none here, gets none.
func TestServeOpenCodePrimaryAgentSkills(t *testing.T) {
	const mark = "PLANNING-SKILL-2b9c: phases with a check each."
	dir := servedProject(t)
	writeFile(t, filepath.Join(dir, ".atreides/skills/planning/SKILL.md"), "---\nname: planning\ndescription: How to plan.\n---\n"+mark+"\n")
	writeFile(t, filepath.Join(dir, ".atreides/config.yaml"), "version: 1\nagents:\n  plan:\n    skills: [planning]\n")
	c := startServe(t, dir)
	c.call("event", created(dir, "ses_a", "", ""))
	turn := func(msg, agent string) string {
		t.Helper()
		c.call("chat.message", map[string]any{"directory": dir, "input": map[string]any{"sessionID": "ses_a"},
			"output": map[string]any{"message": map[string]any{"agent": agent}, "parts": []any{map[string]any{"type": "text", "text": "Next step."}}}})
		r := c.call("messages.transform", map[string]any{"directory": dir, "input": map[string]any{"sessionID": "ses_a"},
			"output": map[string]any{"messages": []any{map[string]any{"id": msg, "role": "user"}}}})
		return fmt.Sprint(r["inject"])
	}
	if got := turn("msg_1", "build"); strings.Contains(got, mark) {
		t.Errorf("build's turn carries plan's skill: %s", got)
	}
	if got := turn("msg_2", "plan"); strings.Count(got, mark) != 1 {
		t.Errorf("plan's turn: %s, want the skill once", got)
	}
	if got := turn("msg_3", "plan"); strings.Contains(got, mark) {
		t.Errorf("plan's next turn places the skill again: %s", got)
	}
}
