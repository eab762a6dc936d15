package work

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/todos"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// todoListOptions are the flags of 'atreides todo list'.
type todoListOptions struct {
	all    bool
	mine   bool
	asJSON bool
}

func newTodoListCmd(io *command.IO) *cobra.Command {
	o := &todoListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "list open todos, as a tree, each with the session whose checklist it is on",
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.BoolVarP(&o.all, "all", "a", false, "include done and cancelled todos")
	f.BoolVar(&o.mine, "mine", false, "only the calling session's todos (a person's: those on no session's checklist)")
	f.BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	return cmd
}

func (o *todoListOptions) run(io *command.IO) error {
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	p, err := command.ReadExistingProject(root) // a project without state has no todos, and gets no state
	if err != nil {
		return err
	}
	list := todos.Key.Read(p).List
	if !o.all {
		list = todos.Key.Read(p).Open()
	}
	if o.mine {
		list = onChecklist(list, todoSession(p, "", command.Actor(io)))
	}
	if o.asJSON {
		return command.PrintJSON(io, view.Todos(list))
	}
	if len(list) == 0 {
		fmt.Fprintln(io.Out, "no open todos")
		return nil
	}
	return printTodoTable(io, view.Todos(list))
}

// onChecklist keeps the todos on session's checklist ("": those on no
// session's).
func onChecklist(list []todos.Todo, session string) []todos.Todo {
	var out []todos.Todo
	for _, t := range list {
		if t.Session == session {
			out = append(out, t)
		}
	}
	return out
}
