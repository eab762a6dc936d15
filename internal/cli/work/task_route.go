package work

import (
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// taskRouteOptions are the arguments of 'atreides task route'.
type taskRouteOptions struct {
	task     int
	language string
	files    []string
	asJSON   bool
}

// taskRouteJSON is 'task route --json'.
type taskRouteJSON struct {
	Task int `json:"task,omitempty"`
	tasks.Routing
	// Files are the files the language was inferred from: the ones the
	// task wrote, or those given.
	Files []string `json:"files"`
	// Problems are configured agents that are not in the roster.
	Problems []string `json:"problems"`
}

func newTaskRouteCmd(io *command.IO) *cobra.Command {
	o := &taskRouteOptions{}
	cmd := &cobra.Command{
		Use:   "route [N]",
		Short: "the agents to research and implement a task with, by its language",
		Long: `Show which roster agents research and implement task N (config
tasks.routing), by the task's language: its own, else the language of the
files it wrote (the trace ledger), else of the file names in its title
and description. Without N, --language or --file says what to route.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				n, err := taskNumber(args[0])
				if err != nil {
					return err
				}
				o.task = n
			}
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the route as JSON")
	cmd.Flags().StringVar(&o.language, "language", "", "route a language instead of a task")
	cmd.Flags().StringArrayVar(&o.files, "file", nil, "route by the language of these files instead of a task (repeatable)")
	return cmd
}

func (o *taskRouteOptions) run(io *command.IO) error {
	switch {
	case o.task == 0 && o.language == "" && len(o.files) == 0:
		return command.Usagef("task route needs a task number, or --language or --file")
	case o.task != 0 && (o.language != "" || len(o.files) > 0):
		return command.Usagef("task route takes a task number or --language/--file, not both")
	}
	root, c, err := command.CwdConfig(io)
	if err != nil {
		return err
	}
	ro := tasks.RouteOptionsFromConfig(c)
	doc := taskRouteJSON{Task: o.task, Files: o.files, Problems: ro.Missing(c)}
	t := taskboard.Task{Language: o.language}
	if o.task != 0 {
		repo := tasks.Open(root, tasks.FromConfig(c))
		if t, err = repo.Task(context.Background(), o.task); err != nil {
			return err
		}
		if doc.Files, err = repo.WrittenFiles(t); err != nil {
			fmt.Fprintf(io.Err, "warning: the trace ledger cannot be read, the task's files are not known: %v\n", err)
		}
	}
	doc.Files = view.List(doc.Files)
	doc.Routing = tasks.Route(ro, &t, doc.Files)
	for _, p := range doc.Problems {
		fmt.Fprintf(io.Err, "warning: %s\n", p)
	}
	if o.asJSON {
		return command.PrintJSON(io, doc)
	}
	if o.task != 0 {
		fmt.Fprintf(io.Out, "task %d: %s\n", t.Number, t.Title)
	}
	fmt.Fprintf(io.Out, "language:  %s\nresearch:  %s\nimplement: %s\nwhy:       %s\n",
		orNone(doc.Language), orNone(doc.Research), orNone(doc.Implement), doc.Why)
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
