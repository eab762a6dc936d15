package hook

import (
	"fmt"
	"strings"
	"testing"
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
