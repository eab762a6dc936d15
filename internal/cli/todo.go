package cli

import (
	"context"
	"fmt"
	"github.com/atreides-dev/atreides/internal/todos"
	"strings"

	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

func newTodoCmd(io *IO) *cobra.Command {
	return newGroupCmd("todo <subcommand>",
		"manage atreides todos: add, start, done, cancel, list",
		`Manage atreides's own todos for this project. While a todo is open, an
agent that tries to stop is asked to finish or close it first.`,
		newTodoAddCmd(io),
		newTodoSetCmd(io, "start", todos.InProgress, "mark todos in progress"),
		newTodoSetCmd(io, "done", todos.Done, "mark todos done"),
		newTodoSetCmd(io, "cancel", todos.Cancelled, "mark todos cancelled"),
		newTodoListCmd(io),
	)
}

// printTodoTree prints todos under their parents; a todo whose parent is
// not in the list is printed at the top level.
func printTodoTree(io *IO, list []view.Todo) { printTodoTreeIndent(io, list, "") }

// printTodoTreeIndent is printTodoTree with every line indented.
func printTodoTreeIndent(io *IO, list []view.Todo, indent string) {
	st := styleOf(io)
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
					mark = st.dim(mark)
				} else if t.Status == todos.InProgress {
					mark = st.paint(sgrYellow, mark)
				}
				fmt.Fprintf(io.Out, "%s%s%s %s %s %s\n", indent, strings.Repeat("  ", depth), mark, st.bold(fmt.Sprintf("#%d", t.ID)), t.Title, st.dim("("+todoDetails(t)+")"))
				walk(t.ID, depth+1)
			}
		}
	}
	walk(0, 0)
}

// todoDetails is a todo's level and whatever else it carries.
func todoDetails(t view.Todo) string {
	parts := []string{t.Level}
	if t.Priority != "" {
		parts = append(parts, t.Priority)
	}
	if loc := t.Location(); loc != "" {
		parts = append(parts, loc)
	}
	if t.Agent != "" {
		parts = append(parts, "agent "+t.Agent)
	}
	return strings.Join(parts, ", ")
}

// updateProject changes the project record in one locked transaction.
func updateProject(io *IO, fn func(*state.Project) error) error {
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	return updateProjectAt(root, fn)
}

// updateProjectAt is updateProject for the project at root, for a command
// that has found the root already.
func updateProjectAt(root string, fn func(*state.Project) error) error {
	return state.UpdateProjectIn(context.Background(), fleet.OpenLogged(root), fn)
}
