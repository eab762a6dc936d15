package agenttools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/todos"
	"github.com/atreides-dev/atreides/internal/view"
)

// todoTools add, update and list todos, a session's checklist
// (docs/work-items.md): a todo the agent adds is on its session's
// checklist and holds that session's stop, no other's. Package todos
// checks levels, parents, priorities and statuses, as for the command
// line.
func todoTools() []Tool {
	return []Tool{{
		Name:        "todo_add",
		Description: "Add a todo to this session's checklist (epic > task > subtask); you are asked to finish or cancel it before you stop. Work for the project, with a plan, is a task (task_create).",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"title":{"type":"string","maxLength":4096,"description":"what needs doing"},` +
			`"level":{"type":"string","maxLength":4096,"description":"epic, task or subtask (default: one level below the parent, else task); a subtask needs a parent, and a todo goes only under a wider one"},` +
			`"parent":{"type":"integer","description":"id of the parent todo"},` +
			`"priority":{"type":"string","maxLength":4096,"description":"critical, high, medium or low"},` +
			`"file":{"type":"string","maxLength":4096,"description":"the file the work is in, project-relative (path or path:line)"},` +
			`"line":{"type":"integer","description":"the line in file"},` +
			`"agent":{"type":"string","maxLength":4096,"description":"the agent the todo belongs to (a subagent type or name)"},` +
			`"task":{"type":"integer","description":"the number of the board's task the todo is a step of"}` +
			`},"required":["title"],"additionalProperties":false}`),
		Call: todoAdd,
	}, {
		Name:        "todo_update",
		Description: "Change a todo's status.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"id":{"type":"integer","description":"the todo's id"},` +
			`"status":{"type":"string","maxLength":4096,"description":"pending, in_progress, done or cancelled"}` +
			`},"required":["id","status"],"additionalProperties":false}`),
		Call: todoUpdate,
	}, {
		Name:        "todo_list",
		Description: "List the project's open todos, yours marked as yours (those hold your stop).",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"all":{"type":"boolean","description":"include done and cancelled todos"}` +
			`},"additionalProperties":false}`),
		Call: todoList,
	}}
}

func todoAdd(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	var in struct {
		Title    string `json:"title"`
		Level    string `json:"level"`
		Parent   int    `json:"parent"`
		Priority string `json:"priority"`
		File     string `json:"file"`
		Line     int    `json:"line"`
		Agent    string `json:"agent"`
		Task     int    `json:"task"`
	}
	if err := parse(args, &in, "title"); err != nil {
		return "", err
	}
	if in.Task != 0 {
		if _, err := e.board().Task(ctx, in.Task); err != nil {
			return "", err
		}
	}
	var t todos.Todo
	err := e.update(ctx, func(p *state.Project) error {
		session, _ := e.session(p)
		var err error
		t, err = todos.Add(p, todos.New{
			Title: in.Title, Level: in.Level, Parent: in.Parent, Priority: in.Priority,
			File: in.File, Line: in.Line, Agent: in.Agent, Session: session, Task: in.Task,
		}, e.Now().UTC())
		return err
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("added todo #%d (%s): %s", t.ID, view.TodoOf(t).Details(), t.Title), nil
}

func todoUpdate(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	var in struct {
		ID     int    `json:"id"`
		Status string `json:"status"`
	}
	if err := parse(args, &in, "id", "status"); err != nil {
		return "", err
	}
	if err := e.update(ctx, func(p *state.Project) error { return todos.Key.Of(p).SetStatus(in.ID, in.Status, e.Now().UTC()) }); err != nil {
		return "", err
	}
	return fmt.Sprintf("todo #%d is %s", in.ID, in.Status), nil
}

func todoList(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	var in struct {
		All bool `json:"all"`
	}
	if err := parse(args, &in); err != nil {
		return "", err
	}
	p, err := e.project(ctx)
	if err != nil {
		return "", err
	}
	session, _ := e.session(p)
	return renderTodos(view.Todos(todos.Key.Read(p).List), in.All, session), nil
}

// renderTodos is the todo tree, open todos only unless all; each todo
// says whose checklist it is on, session's ("yours") or another's.
func renderTodos(todos []view.Todo, all bool, session string) string {
	var b strings.Builder
	var walk func(parent, depth int)
	walk = func(parent, depth int) {
		for _, t := range todos {
			if t.Parent != parent || (!all && !t.Open()) {
				continue
			}
			fmt.Fprintf(&b, "%s- #%d [%s] %s (%s%s)\n", strings.Repeat("  ", depth), t.ID, t.Status, t.Title, t.Details(), owner(t.Session, session))
			if depth < 3 {
				walk(t.ID, depth+1)
			}
		}
	}
	walk(0, 0)
	if b.Len() == 0 {
		return "no todos\n"
	}
	return b.String()
}

// owner says whose checklist a todo is on, for the agent of session.
func owner(of, session string) string {
	switch of {
	case "":
		return ", no session"
	case session:
		return ", yours"
	}
	return ", session " + of
}
