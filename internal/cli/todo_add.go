package cli

import (
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/spf13/cobra"
)

// todoAddOptions are the arguments of 'atreides todo add'.
type todoAddOptions struct {
	parent int
	level  string
	title  string
	asJSON bool
}

func newTodoAddCmd(io *IO) *cobra.Command {
	o := &todoAddOptions{}
	cmd := &cobra.Command{
		Use:   "add TITLE...",
		Short: "add a todo",
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			o.title = joinArgs(args)
			return o.run(io)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&o.parent, "parent", "p", 0, "id of the parent todo")
	f.StringVarP(&o.level, "level", "l", "", "epic, task or subtask (default: task, or subtask under a parent)")
	f.BoolVar(&o.asJSON, "json", false, "print the new todo as JSON")
	completeValues(cmd, "level", "epic", "task", "subtask")
	return cmd
}

func (o *todoAddOptions) run(io *IO) error {
	if o.title == "" {
		return usagef("todo add needs a title")
	}
	lv := o.level
	switch {
	case lv == "" && o.parent != 0:
		lv = "subtask"
	case lv == "":
		lv = "task"
	case lv != "epic" && lv != "task" && lv != "subtask":
		return usagef("--level must be epic, task or subtask, not %q", lv)
	}
	var added state.Todo
	err := updateProject(io, func(p *state.Project) error {
		t, err := p.AddTodo(o.title, lv, o.parent, "", time.Now().UTC())
		added = t
		return err
	})
	if err != nil {
		return err
	}
	if o.asJSON {
		return printJSON(io, todoView(added))
	}
	fmt.Fprintf(io.Out, "added todo #%d: %s\n", added.ID, added.Title)
	return nil
}
