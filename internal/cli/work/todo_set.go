package work

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/todos"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// todoSetOptions are the arguments of 'atreides todo start|done|cancel':
// one status given to every todo named.
type todoSetOptions struct {
	verb   string
	status string
	ids    []string
	asJSON bool
}

func newTodoSetCmd(io *command.IO, verb, status, short string) *cobra.Command {
	o := &todoSetOptions{verb: verb, status: status}
	cmd := &cobra.Command{
		Use:   verb + " ID...",
		Short: short,
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			o.ids = args
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the changed todos as JSON")
	return cmd
}

func (o *todoSetOptions) run(io *command.IO) error {
	ids, err := parseIDs(o.ids, "todo "+o.verb, "todo")
	if err != nil {
		return err
	}
	changed := make([]view.Todo, 0, len(ids))
	err = command.UpdateProject(io, func(p *state.Project) error {
		now := time.Now().UTC()
		for _, id := range ids {
			if err := todos.Key.Of(p).SetStatus(id, o.status, now); err != nil {
				return err
			}
		}
		for _, t := range todos.Key.Of(p).List {
			if slices.Contains(ids, t.ID) {
				changed = append(changed, view.TodoOf(t))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, changed)
	}
	for _, id := range ids {
		fmt.Fprintf(io.Out, "todo #%d: %s\n", id, strings.ReplaceAll(o.status, "_", " "))
	}
	return nil
}

// parseIDs reads numeric ids, with or without a leading '#'; what is the
// item's name in messages.
func parseIDs(args []string, cmd, what string) ([]int, error) {
	if len(args) == 0 {
		return nil, command.Usagef("%s needs at least one %s id", cmd, what)
	}
	ids := make([]int, 0, len(args))
	// "3,5 8": ids separated by commas too, as a slash command's user
	// types them.
	for _, a := range strings.FieldsFunc(strings.Join(args, " "), func(r rune) bool { return r == ',' || r == ' ' }) {
		id, err := strconv.Atoi(strings.TrimPrefix(a, "#"))
		if err != nil {
			return nil, command.Usagef("%q is not a %s id", a, what)
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, command.Usagef("%s needs at least one %s id", cmd, what)
	}
	return ids, nil
}
