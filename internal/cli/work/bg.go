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
