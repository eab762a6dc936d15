package work

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/host/all"
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
	host     string
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
	// Host is the host the models and tools are of: --host, else the
	// host whose agent runs the command; "" when neither is known.
	Host string `json:"host"`
	// Models are the routed agents' models on Host ("" for its default).
	Models routeModels `json:"models"`
	// Tools are the MCP servers the language declares, checked in Host's
	// configuration; ToolsNote says why they were not, when not.
	Tools     []tasks.ToolCheck `json:"tools"`
	ToolsNote string            `json:"tools_note,omitempty"`
}

// routeModels are the models of the research and implement agents.
type routeModels struct {
	Research  string `json:"research"`
	Implement string `json:"implement"`
}

func newTaskRouteCmd(io *command.IO) *cobra.Command {
	o := &taskRouteOptions{}
	cmd := &cobra.Command{
		Use:   "route [N]",
		Short: "the agents to research and implement a task with, by its language",
		Long: `Show which roster agents research and implement task N (config
tasks.routing), by the task's language: its own, else the language of the
files it wrote (the trace ledger), else of the file names in its title
and description. Without N, --language or --file says what to route.
The agents' models are those the roster gives them on the host (--host,
else the host whose agent runs the command). The MCP servers the
language declares (tasks.routing.languages.LANG.mcp) are looked for in
that host's configuration; a missing one is logged once to the error log
(errors.json) with the fallback: the agent works without it.`,
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
	cmd.Flags().StringVar(&o.host, "host", "", "the host whose models and MCP servers to use (default: the one running this command)")
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
	pick := func(host string, op tasks.Operation) tasks.Pick { return tasks.PickWith(c, host, op, &t, doc.Files) }
	if err := o.hostSide(io, root, pick, ro.ToolsOf(doc.Language), tasks.FromConfig(c), &doc); err != nil {
		return err
	}
	for _, p := range doc.Problems {
		fmt.Fprintf(io.Err, "warning: %s\n", p)
	}
	if o.asJSON {
		return command.PrintJSON(io, doc)
	}
	if o.task != 0 {
		fmt.Fprintf(io.Out, "task %d: %s\n", t.Number, t.Title)
	}
	fmt.Fprintf(io.Out, "language:  %s\nresearch:  %s%s\nimplement: %s%s\nwhy:       %s\n",
		orNone(doc.Language), orNone(doc.Research), modelNote(doc.Models.Research),
		orNone(doc.Implement), modelNote(doc.Models.Implement), doc.Why)
	for _, tc := range doc.Tools {
		if tc.Available {
			fmt.Fprintf(io.Out, "mcp:       %s (configured in %s)\n", tc.MCP, doc.Host)
		} else {
			fmt.Fprintf(io.Out, "mcp:       %s missing in %s: %s\n", tc.MCP, doc.Host, tc.Fallback)
		}
	}
	if doc.ToolsNote != "" {
		fmt.Fprintf(io.Out, "mcp:       %s\n", doc.ToolsNote)
	}
	return nil
}

// hostSide fills what depends on the host: the agents' models, and the
// language's MCP servers checked in the host's configuration, a missing
// one logged once to the error log.
func (o *taskRouteOptions) hostSide(io *command.IO, root string, pick func(string, tasks.Operation) tasks.Pick, declared []string, to tasks.Options, doc *taskRouteJSON) error {
	doc.Host, doc.Tools = o.host, []tasks.ToolCheck{}
	if _, ok := all.ByName(o.host); o.host != "" && !ok {
		return command.Usagef("unknown host %q: one of %s", o.host, all.Names())
	}
	if doc.Host == "" {
		if h := all.Calling(os.Environ()); h != nil {
			doc.Host = h.Name
		}
	}
	doc.Models.Research = pick(doc.Host, tasks.OpResearch).Model
	doc.Models.Implement = pick(doc.Host, tasks.OpImplement).Model
	if len(declared) == 0 {
		return nil
	}
	if doc.Host == "" {
		doc.ToolsNote = "not checked: no host known (run from an agent's shell, or give --host)"
		return nil
	}
	home, _ := os.UserHomeDir()
	servers, known, err := all.MCPServers(doc.Host, root, home, os.Getenv)
	switch {
	case !known:
		doc.ToolsNote = "not checked: atreides does not read " + doc.Host + "'s MCP configuration"
		return nil
	case err != nil:
		// A file that could not be read may declare the servers:
		// nothing is known missing, so nothing is logged.
		fmt.Fprintf(io.Err, "warning: %v\n", err)
		doc.ToolsNote = "not checked: " + doc.Host + "'s MCP configuration could not be read"
		return nil
	}
	doc.Tools = tasks.CheckTools(declared, servers)
	repo := tasks.Open(root, to)
	return repo.Update(context.Background(), func(b *taskboard.Tasks, now time.Time) error {
		tasks.LogMissingTools(b, doc.Language, doc.Host, doc.Implement, doc.Tools, now)
		return nil
	})
}

// modelNote is a model in the text output, nothing for the host's
// default.
func modelNote(m string) string {
	if m == "" {
		return ""
	}
	return " (model " + m + ")"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
