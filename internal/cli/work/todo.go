package work

import (
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/todos"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

func NewTodoCmd(io *command.IO) *cobra.Command {
	return command.NewGroupCmd("todo <subcommand>",
		"manage a session's checklist: add, start, done, cancel, list",
		`Manage atreides todos: a session's checklist (docs/work-items.md). A
todo an agent adds is on its session's checklist, and while it is open
that session's agent is asked to finish or close it before it stops;
no other session is held to it. A todo added at a terminal is on no
session's checklist and holds no agent. Work for the project, with a
plan, dependencies and a claim, is a task (atreides task).`,
		newTodoAddCmd(io),
		newTodoSetCmd(io, "start", todos.InProgress, "mark todos in progress"),
		newTodoSetCmd(io, "done", todos.Done, "mark todos done"),
		newTodoSetCmd(io, "cancel", todos.Cancelled, "mark todos cancelled"),
		newTodoListCmd(io),
	)
}

// printTodoTree prints todos under their parents; a todo whose parent is
// not in the list is printed at the top level.
func printTodoTree(io *command.IO, list []view.Todo) { printTodoTreeIndent(io, list, "") }

// printTodoTreeIndent is printTodoTree with every line indented.
func printTodoTreeIndent(io *command.IO, list []view.Todo, indent string) {
	st := command.StyleOf(io)
	present := map[int]bool{}
	for _, t := range list {
		present[t.ID] = true
	}
	var walk func(parent, depth int)
	walk = func(parent, depth int) {
		for _, t := range list {
			top := t.Parent == 0 || !present[t.Parent]
			if (parent == 0 && top) || (parent != 0 && t.Parent == parent) {
				mark := map[string]string{todos.Pending: "[ ]", todos.InProgress: "[~]", todos.Done: "[x]", todos.Cancelled: "[-]"}[t.Status]
				if t.Status == todos.Done || t.Status == todos.Cancelled {
					mark = st.Dim(mark)
				} else if t.Status == todos.InProgress {
					mark = st.Paint(command.SGRYellow, mark)
				}
				fmt.Fprintf(io.Out, "%s%s%s %s %s %s\n", indent, strings.Repeat("  ", depth), mark, st.Bold(fmt.Sprintf("#%d", t.ID)), t.Title, st.Dim("("+todoDetails(t)+")"))
				walk(t.ID, depth+1)
			}
		}
	}
	walk(0, 0)
}

// todoDetails are the todo's details and, when it is on a session's
// checklist, the session (its first 8 characters: enough to tell the
// project's sessions apart on one line).
func todoDetails(t view.Todo) string {
	d := t.Details()
	if t.Session != "" {
		d += ", session " + shortSession(t.Session)
	}
	return d
}

func shortSession(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
