package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

const todoUsage = `todo <add|done|cancel|start|list> [args]

Manage atreides's own todos for this project. While a todo is open, an
agent that tries to stop is asked to finish or close it first.

  atreides todo add [--parent ID] [--level epic|task|subtask] TITLE...
  atreides todo start ID      mark in progress
  atreides todo done ID...    mark done
  atreides todo cancel ID...  mark cancelled
  atreides todo list [--all] [--json]`

func runTodo(io *IO, args []string) error {
	if len(args) == 0 {
		return usagef("missing subcommand (add, done, cancel, start, list)")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "add":
		return todoAdd(io, rest)
	case "done":
		return todoSet(io, "done", state.TodoDone, rest)
	case "cancel":
		return todoSet(io, "cancel", state.TodoCancelled, rest)
	case "start":
		return todoSet(io, "start", state.TodoInProgress, rest)
	case "list":
		return todoList(io, rest)
	case "-h", "--help", "help":
		fmt.Fprintf(io.Err, "Usage: %s\n", todoUsage)
		return nil
	}
	return usagef("unknown subcommand %q (add, done, cancel, start, list)", sub)
}

func todoAdd(io *IO, args []string) error {
	fs := newFlags(todoUsage, io)
	parent := fs.Int("parent", 0, "id of the parent todo")
	level := fs.String("level", "", "epic, task or subtask (default: task, or subtask under a parent)")
	if err := parse(fs, args); err != nil {
		return err
	}
	title := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if title == "" {
		return usagef("todo add needs a title")
	}
	lv := *level
	switch {
	case lv == "" && *parent != 0:
		lv = "subtask"
	case lv == "":
		lv = "task"
	case lv != "epic" && lv != "task" && lv != "subtask":
		return usagef("--level must be epic, task or subtask, not %q", lv)
	}
	var added state.Todo
	err := updateProject(io, func(p *state.Project) error {
		t, err := p.AddTodo(title, lv, *parent, "", time.Now().UTC())
		added = t
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "added todo #%d: %s\n", added.ID, added.Title)
	return nil
}

func todoSet(io *IO, verb, status string, args []string) error {
	if len(args) == 0 {
		return usagef("todo %s needs at least one todo id", verb)
	}
	ids := make([]int, 0, len(args))
	for _, a := range args {
		id, err := strconv.Atoi(strings.TrimPrefix(a, "#"))
		if err != nil {
			return usagef("%q is not a todo id", a)
		}
		ids = append(ids, id)
	}
	err := updateProject(io, func(p *state.Project) error {
		now := time.Now().UTC()
		for _, id := range ids {
			if err := p.SetStatus(id, status, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		fmt.Fprintf(io.Out, "todo #%d: %s\n", id, strings.ReplaceAll(status, "_", " "))
	}
	return nil
}

func todoList(io *IO, args []string) error {
	fs := newFlags(todoUsage, io)
	all := fs.Bool("all", false, "include done and cancelled todos")
	asJSON := fs.Bool("json", false, "print JSON for scripts")
	if err := parse(fs, args); err != nil {
		return err
	}
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	p, err := loadProject(store.Open(project.StateDir(root)))
	if err != nil {
		return err
	}
	todos := p.Todos
	if !*all {
		todos = p.OpenTodos()
	}
	if todos == nil {
		todos = []state.Todo{}
	}
	if *asJSON {
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(todos)
	}
	if len(todos) == 0 {
		fmt.Fprintln(io.Out, "no open todos")
		return nil
	}
	printTodoTree(io, todos)
	return nil
}

// printTodoTree prints todos under their parents; a todo whose parent is
// not in the list is printed at the top level.
func printTodoTree(io *IO, todos []state.Todo) { printTodoTreeIndent(io, todos, "") }

// printTodoTreeIndent is printTodoTree with every line indented.
func printTodoTreeIndent(io *IO, todos []state.Todo, indent string) {
	present := map[int]bool{}
	for _, t := range todos {
		present[t.ID] = true
	}
	var walk func(parent, depth int)
	walk = func(parent, depth int) {
		for _, t := range todos {
			top := t.Parent == 0 || !present[t.Parent]
			if (parent == 0 && top) || (parent != 0 && t.Parent == parent) {
				mark := map[string]string{state.TodoPending: "[ ]", state.TodoInProgress: "[~]", state.TodoDone: "[x]", state.TodoCancelled: "[-]"}[t.Status]
				fmt.Fprintf(io.Out, "%s%s%s #%d %s (%s)\n", indent, strings.Repeat("  ", depth), mark, t.ID, t.Title, t.Level)
				walk(t.ID, depth+1)
			}
		}
	}
	walk(0, 0)
}

// updateProject changes the project record in one locked transaction.
func updateProject(io *IO, fn func(*state.Project) error) error {
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	st := store.Open(project.StateDir(root))
	return st.Update(context.Background(), func(tx *store.Tx) error {
		p, err := engine.LoadProject(tx)
		if err != nil {
			return err
		}
		if err := fn(p); err != nil {
			return err
		}
		return engine.SaveProject(tx, p)
	})
}

func loadProject(st *store.Store) (*state.Project, error) {
	var p *state.Project
	err := st.View(context.Background(), func(tx *store.Tx) error {
		var err error
		p, err = engine.LoadProject(tx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read project state: %w", err)
	}
	return p, nil
}
