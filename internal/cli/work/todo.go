package work

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/todos"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

func NewTodoCmd(io *command.IO) *cobra.Command {
	list := newTodoListCmd(io)
	cmd := command.NewListGroupCmd("todo [subcommand]",
		"manage a session's checklist: add, start, done, cancel, list",
		`Manage atreides todos: a session's checklist (docs/work-items.md). A
todo an agent adds is on its session's checklist, and while it is open
that session's agent is asked to finish or close it before it stops;
no other session is held to it. A todo added at a terminal is on no
session's checklist and holds no agent. Work for the project, with a
plan, dependencies and a claim, is a task (atreides task).

Without a subcommand, todo lists the open todos, as 'todo list' does
(and takes its flags).`,
		list,
		newTodoAddCmd(io),
		newTodoSetCmd(io, "start", todos.InProgress, "mark todos in progress"),
		newTodoSetCmd(io, "done", todos.Done, "mark todos done"),
		newTodoSetCmd(io, "cancel", todos.Cancelled, "mark todos cancelled"),
		list,
	)
	for _, sub := range cmd.Commands() {
		if sub.Name() != "add" && sub.Name() != "list" { // start, done, cancel: todo numbers
			sub.ValidArgsFunction = command.CompleteWith(io, todoCompletions)
		}
	}
	return cmd
}

// todoCompletions are the numbers of the project's open todos, with their
// titles, for the shell; none, and no state created, without state.
func todoCompletions(io *command.IO) []string {
	root, err := command.CwdRoot(io)
	if err != nil {
		return nil
	}
	p, err := command.ReadExistingProject(root)
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range todos.Key.Read(p).Open() {
		out = append(out, strconv.Itoa(t.ID)+"\t"+command.OneLine(t.Title, 60))
	}
	return out
}

// todoStatusWord is a todo status as a list's column says it.
func todoStatusWord(status string) string {
	if status == todos.InProgress {
		return "in progress"
	}
	return status
}

// printTodoTable lists todos as a table, children under their parents:
// on a terminal the title is indented by depth; piped, a parent column
// keeps the tree and the number has no '#', as gh prints numbers.
func printTodoTable(io *command.IO, list []view.Todo) error {
	st := command.StyleOf(io)
	tty := command.IsTTY(io)
	header := []string{"id", "status", "title", "details"}
	if !tty {
		header = []string{"id", "status", "parent", "title", "details"}
	}
	tb := command.NewTable(io, io.Out, header...).Flex(len(header)-2, len(header)-1)
	walkTodos(list, func(t view.Todo, depth int) {
		status := todoStatusWord(t.Status)
		if tty {
			tb.AddPainted(command.NumberCell(io, t.ID), st.Bold).AddPainted(status, todoPaint(st, t.Status))
			tb.Add(strings.Repeat("  ", depth) + t.Title)
		} else {
			tb.Add(command.NumberCell(io, t.ID)).Add(status).Add(parentOf(t)).Add(t.Title)
		}
		tb.AddPainted(todoDetails(t), st.Dim).EndRow()
	})
	return tb.Render()
}

// parentOf is a todo's parent number, "" at the top.
func parentOf(t view.Todo) string {
	if t.Parent == 0 {
		return ""
	}
	return strconv.Itoa(t.Parent)
}

// todoPaint is how a todo's status is painted: open work stands out.
func todoPaint(st command.Style, status string) func(string) string {
	switch status {
	case todos.Done, todos.Cancelled:
		return st.Dim
	case todos.InProgress:
		return func(s string) string { return st.Paint(command.SGRYellow, s) }
	}
	return nil
}

// walkTodos calls fn with each todo under its parent, depth first; a
// todo whose parent is not in the list is at the top.
func walkTodos(list []view.Todo, fn func(view.Todo, int)) {
	present := map[int]bool{}
	for _, t := range list {
		present[t.ID] = true
	}
	var walk func(parent, depth int)
	walk = func(parent, depth int) {
		for _, t := range list {
			top := t.Parent == 0 || !present[t.Parent]
			if (parent == 0 && top) || (parent != 0 && t.Parent == parent) {
				fn(t, depth)
				walk(t.ID, depth+1)
			}
		}
	}
	walk(0, 0)
}

// printTodoTreeIndent prints todos as a tree of checkboxes under their
// parents, every line indented: status -v's view of the project's todos.
func printTodoTreeIndent(io *command.IO, list []view.Todo, indent string) {
	st := command.StyleOf(io)
	walkTodos(list, func(t view.Todo, depth int) {
		mark := map[string]string{todos.Pending: "[ ]", todos.InProgress: "[~]", todos.Done: "[x]", todos.Cancelled: "[-]"}[t.Status]
		if paint := todoPaint(st, t.Status); paint != nil {
			mark = paint(mark)
		}
		fmt.Fprintf(io.Out, "%s%s%s %s %s %s\n", indent, strings.Repeat("  ", depth), mark, st.Bold(fmt.Sprintf("#%d", t.ID)), command.OneLine(t.Title, 200), st.Dim("("+todoDetails(t)+")"))
	})
}

// todoDetails are the todo's details and, when it is on a session's
// checklist, the session (short, as lists show sessions).
func todoDetails(t view.Todo) string {
	d := t.Details()
	if t.Session != "" {
		d += ", session " + state.ShortID(t.Session, 0)
	}
	return d
}
