package work

import (
	"context"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/actor"
	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/todos"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// todoAddOptions are the arguments of 'atreides todo add'.
type todoAddOptions struct {
	parent   int
	level    string
	priority string
	file     string
	line     int
	agent    string
	session  string
	task     int
	title    string
	asJSON   bool
}

func newTodoAddCmd(io *command.IO) *cobra.Command {
	o := &todoAddOptions{}
	cmd := &cobra.Command{
		Use:   "add TITLE...",
		Short: "add a todo",
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			o.title = command.JoinArgs(args)
			return o.run(io)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&o.parent, "parent", "p", 0, "id of the parent todo")
	f.StringVarP(&o.level, "level", "l", "", "epic, task or subtask (default: one level below the parent, else task)")
	f.StringVar(&o.priority, "priority", "", "critical, high, medium or low")
	f.StringVar(&o.file, "file", "", "the file the work is in (PATH or PATH:LINE)")
	f.IntVar(&o.line, "line", 0, "the line in --file")
	f.StringVar(&o.agent, "agent", "", "the agent the todo belongs to (a subagent type or name)")
	f.IntVar(&o.task, "task", 0, "the number of the board's task it is a step of")
	f.StringVarP(&o.session, "session", "s", "", "the session whose checklist it goes on (default: the calling session; none at a terminal)")
	f.BoolVar(&o.asJSON, "json", false, "print the new todo as JSON")
	command.CompleteValues(cmd, "level", "epic", "task", "subtask")
	command.CompleteValues(cmd, "priority", "critical", "high", "medium", "low")
	return cmd
}

func (o *todoAddOptions) run(io *command.IO) error {
	if o.title == "" {
		return command.Usagef("todo add needs a title")
	}
	// Words are checked before the store is opened, as usage errors; the
	// rules that need the other todos are package state's.
	if _, err := todos.ParseLevel(o.level); err != nil {
		return command.Usagef("--level: %v", err)
	}
	if _, err := anchors.ParsePriority(o.priority); err != nil {
		return command.Usagef("--priority: %v", err)
	}
	if err := actor.ActAs(o.session, command.Actor(io)); err != nil {
		return err
	}
	if err := o.checkTask(io); err != nil {
		return err
	}
	var added todos.Todo
	err := command.UpdateProject(io, func(p *state.Project) error {
		t, err := todos.Add(p, todos.New{
			Title: o.title, Level: o.level, Parent: o.parent,
			Priority: o.priority, File: o.file, Line: o.line, Agent: o.agent,
			Session: todoSession(p, o.session, command.Actor(io)), Task: o.task,
		}, time.Now().UTC())
		added = t
		return err
	})
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, view.TodoOf(added))
	}
	fmt.Fprintf(io.Out, "added todo #%d: %s\n", added.ID, added.Title)
	if added.Session == "" {
		// Said on stderr, once, so that the line above stays what
		// scripts read.
		fmt.Fprintf(io.Err, "note: todo #%d is on no session's checklist and holds no agent's stop; work for an agent is a task (atreides task add)\n", added.ID)
	}
	return nil
}

// checkTask checks that --task names a task of the board.
func (o *todoAddOptions) checkTask(io *command.IO) error {
	if o.task == 0 {
		return nil
	}
	if o.task < 0 {
		return command.Usagef("--task: %d is not a task number", o.task)
	}
	r, err := taskRepo(io)
	if err != nil {
		return err
	}
	_, err = r.Task(context.Background(), o.task)
	return err
}

// todoSession is the session whose checklist a new todo goes on: the
// task commands' caller (tasks.CallerOf), so that a todo typed by a
// person at a terminal is on no session's list and holds no agent
// (docs/work-items.md).
func todoSession(p *state.Project, named string, e actor.Env) string {
	id, _ := tasks.CallerOf(p, named, e)
	if id == tasks.UserSession {
		return ""
	}
	return id
}
