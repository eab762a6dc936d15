package delegation

import (
	"fmt"
	"github.com/atreides-dev/atreides/internal/todos"
	"slices"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
)

// todoRule refuses a delegation while the session has no open todo, when
// the rule is on: a delegation should serve a tracked piece of work.
func todoRule(c *engine.Call, o *Options) event.Result {
	if !o.RequireTodo || hasOpenTodo(c.State) {
		return event.Result{}
	}
	if c.State.Unsaved {
		// The todos could not be read: not a security rule, so it fails open.
		c.Env.Logf("delegation.require_todo not checked: the session's state could not be loaded")
		return event.Result{}
	}
	// The agent adds it itself: a todo the user types at a terminal is on
	// no session's checklist (docs/work-items.md) and would not count.
	how := "with atreides's todo_add tool, or by running `atreides todo add \"<title>\"` yourself"
	// The host's own todo tool, which atreides mirrors, when it has one
	// whose calls reach atreides.
	if t := c.Event.HostFacts().TodoTool; t != "" {
		how = t + ", or with atreides's todo_add tool"
	}
	return event.Result{Verdict: event.Deny, Rule: "delegation.no-todo", Reason: fmt.Sprintf(
		"Delegation refused: this project delegates only work that is on the todo list (delegation.require_todo), and this session has no open todo. Add one for the work you want to delegate %s, then delegate again.", how)}
}

// hasOpenTodo is the stop gate's rule of whose todos are whose
// (todos.Todos.Held): the session's own, not every todo of the project.
func hasOpenTodo(st *engine.State) bool {
	return slices.ContainsFunc(agenttodos.Key.Of(st.Session).Agent, agenttodos.Todo.Open) || len(todos.Key.Read(st.Project).Held(st.Project, st.Session.ID)) > 0
}
