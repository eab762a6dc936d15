package work

import (
	"context"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

func NewBgCmd(io *command.IO) *cobra.Command {
	return command.NewGroupCmd("bg <subcommand>",
		"background tasks: list, show, cancel",
		`Background tasks are work an agent handed to another agent with
background_task or delegate_task: queued per concurrency key (config
background:), run by the host's headless CLI, their output kept in
.atreides/background/<id>/.`,
		newBgListCmd(io), newBgShowCmd(io), newBgCancelCmd(io), newBgRunCmd(io),
	)
}

// bgRegistry opens the registry of the project of the working directory;
// every command updates it, so lost runners are failed first.
func bgRegistry(io *command.IO) (*background.Registry, error) {
	root, err := command.CwdRoot(io)
	if err != nil {
		return nil, err
	}
	return background.Open(root, background.LoadOptions(root)), nil
}

func bgList(io *command.IO) ([]view.BgTask, error) {
	r, err := bgRegistry(io)
	if err != nil {
		return nil, err
	}
	var views []view.BgTask
	err = r.Update(context.Background(), func(p *state.Project, now time.Time) error {
		views = view.BgTasks(p, now)
		return nil
	})
	return views, err
}

func printBg(io *command.IO, v view.BgTask, indent string) {
	st := command.StyleOf(io)
	status := v.Status
	switch v.Status {
	case background.Completed:
		status = st.Paint(command.SGRGreen, status)
	case background.Failed:
		status = st.Paint(command.SGRRed, status)
	case background.Running:
		status = st.Paint(command.SGRYellow, status)
	case background.Queued:
		status = fmt.Sprintf("%s #%d", status, v.Queue)
	case background.Cancelled:
		status = st.Dim(status)
	}
	fmt.Fprintf(io.Out, "%s%s %s %s %s %s\n", indent, st.Bold(v.ID), status, v.Agent, st.Dim(v.Runtime), v.Description)
	if v.Error != "" {
		fmt.Fprintf(io.Out, "%s  %s\n", indent, st.Paint(command.SGRRed, v.Error))
	}
}

// bgListOptions are the flags of 'atreides bg list'.
type bgListOptions struct {
	asJSON bool
}

func newBgListCmd(io *command.IO) *cobra.Command {
	o := &bgListOptions{}
	cmd := &cobra.Command{
		Use: "list", Short: "list background tasks", Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	return cmd
}

func (o *bgListOptions) run(io *command.IO) error {
	views, err := bgList(io)
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, views)
	}
	if len(views) == 0 {
		fmt.Fprintln(io.Out, "no background tasks")
	}
	for _, v := range views {
		printBg(io, v, "")
	}
	return nil
}

// bgShowOptions are the arguments of 'atreides bg show'.
type bgShowOptions struct {
	id     string
	asJSON bool
}

func newBgShowCmd(io *command.IO) *cobra.Command {
	o := &bgShowOptions{}
	cmd := &cobra.Command{
		Use: "show <id>", Short: "show a background task and its result", Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.id = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	return cmd
}

func (o *bgShowOptions) run(io *command.IO) error {
	views, err := bgList(io)
	if err != nil {
		return err
	}
	for _, v := range views {
		if v.ID != o.id {
			continue
		}
		if o.asJSON {
			return command.PrintJSON(io, v)
		}
		printBg(io, v, "")
		root, _ := command.CwdRoot(io)
		if res := background.ResultOf(root, v.ID, v.Summary); res != "" {
			fmt.Fprintf(io.Out, "\n%s\n", res)
		}
		fmt.Fprintf(io.Out, "\n%s\n", command.StyleOf(io).Dim("output: "+v.Output))
		return nil
	}
	return fmt.Errorf("no background task %s", o.id)
}

// bgCancelOptions are the arguments of 'atreides bg cancel'.
type bgCancelOptions struct {
	ids []string
}

func newBgCancelCmd(io *command.IO) *cobra.Command {
	o := &bgCancelOptions{}
	return &cobra.Command{
		Use: "cancel <id>...", Short: "cancel background tasks (stops a running one's process)", Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.ids = args
			return o.run(io)
		},
	}
}

func (o *bgCancelOptions) run(io *command.IO) error {
	r, err := bgRegistry(io)
	if err != nil {
		return err
	}
	err = r.Cancel(context.Background(), o.ids...)
	if err == nil {
		fmt.Fprintf(io.Out, "cancelled %d background task(s)\n", len(o.ids))
	}
	return err
}

// bgRunOptions are the arguments of 'atreides bg run'.
type bgRunOptions struct {
	id string
}

// newBgRunCmd is the detached supervisor of one task (background.Launch
// starts it); not for people.
func newBgRunCmd(io *command.IO) *cobra.Command {
	o := &bgRunOptions{}
	return &cobra.Command{
		Use: "run <id>", Short: "run a background task (internal)", Args: cobra.ExactArgs(1), Hidden: true,
		RunE: func(_ *cobra.Command, args []string) error {
			o.id = args[0]
			return o.run(io)
		},
	}
}

func (o *bgRunOptions) run(io *command.IO) error {
	r, err := bgRegistry(io)
	if err != nil {
		return err
	}
	return r.Supervise(context.Background(), o.id)
}
