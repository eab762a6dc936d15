package work

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

func NewBgCmd(io *command.IO) *cobra.Command {
	list := newBgListCmd(io)
	return command.NewListGroupCmd("bg [subcommand]",
		"background tasks: list, show, cancel",
		`Background tasks are work an agent handed to another agent with
background_task or delegate_task: queued per concurrency key (config
background:), run by the host's headless CLI, their output kept in
.atreides/background/<id>/.

Without a subcommand, bg lists them, as 'bg list' does. show and cancel
take an id (bg-3), its number (3) or the start of an id.`,
		list, list, newBgShowCmd(io), newBgCancelCmd(io), newBgRunCmd(io),
	)
}

// bgIDs resolves ids as the user typed them (an id, its number, or the
// start of one) to the ids of views (command.ResolveID).
func bgIDs(views []view.BgTask, args []string) ([]string, error) {
	ids := make([]string, len(views))
	for i, v := range views {
		ids[i] = v.ID
	}
	out := make([]string, 0, len(args))
	for _, a := range args {
		id, err := bgID(a, ids)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}

// bgID is the one id of ids that a names.
func bgID(a string, ids []string) (string, error) {
	if id, numbered := bgNumbered(a); numbered {
		if !slices.Contains(ids, id) {
			// A number names one task: 1 is not the start of bg-12,
			// whose number is 12 (bg cancel 1 must not cancel it).
			return "", fmt.Errorf("no background task %s", id)
		}
		return id, nil
	}
	id, err := command.ResolveID("background task", a, ids)
	if errors.Is(err, command.ErrNoMatch) {
		return "", fmt.Errorf("no background task %s", a)
	}
	return id, err
}

// bgNumbered is the id a task's number names ("3" and "#3" are bg-3), or
// a itself when it is a whole id (bg-3); numbered is false for anything
// else, which is the start of an id.
func bgNumbered(a string) (id string, numbered bool) {
	if n := strings.TrimPrefix(a, "#"); isNumber(n) {
		return bgPrefix + n, true
	}
	return a, isNumber(strings.TrimPrefix(a, bgPrefix))
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// bgPrefix starts every background task's id (package background).
const bgPrefix = "bg-"

// printBgTable lists background tasks, one a row.
func printBgTable(io *command.IO, views []view.BgTask) error {
	st := command.StyleOf(io)
	tb := command.NewTable(io, io.Out, "id", "status", "agent", "runtime", "description", "error").Flex(4, 5)
	for _, v := range views {
		tb.AddPainted(v.ID, st.Bold).AddPainted(bgStatus(v), bgPaint(st, v.Status)).Add(v.Agent).Add(v.Runtime)
		tb.Add(v.Description).AddPainted(v.Error, func(s string) string { return st.Paint(command.SGRRed, s) }).EndRow()
	}
	return tb.Render()
}

// bgStatus is a background task's status as lists say it: a queued
// one's with its place in the queue.
func bgStatus(v view.BgTask) string {
	if v.Status == background.Queued {
		return fmt.Sprintf("%s #%d", v.Status, v.Queue)
	}
	return v.Status
}

// bgPaint is how a background task's status is painted.
func bgPaint(st command.Style, status string) func(string) string {
	code := ""
	switch status {
	case background.Completed:
		code = command.SGRGreen
	case background.Failed:
		code = command.SGRRed
	case background.Running:
		code = command.SGRYellow
	case background.Cancelled:
		return st.Dim
	}
	if code == "" {
		return nil
	}
	return func(s string) string { return st.Paint(code, s) }
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

// bgList is the project's background tasks, none (and nothing created)
// in a project without state.
func bgList(io *command.IO) ([]view.BgTask, error) {
	root, err := command.CwdRoot(io)
	if err != nil {
		return nil, err
	}
	if !command.HasState(root) {
		return nil, nil
	}
	r := background.Open(root, background.LoadOptions(root))
	var views []view.BgTask
	err = r.Update(context.Background(), func(p *state.Project, now time.Time) error {
		views = view.BgTasks(p, now)
		return nil
	})
	return views, err
}

func printBg(io *command.IO, v view.BgTask, indent string) {
	st := command.StyleOf(io)
	status := bgStatus(v)
	if paint := bgPaint(st, v.Status); paint != nil {
		status = paint(status)
	}
	fmt.Fprintf(io.Out, "%s%s %s %s %s %s\n", indent, st.Bold(v.ID), status, v.Agent, st.Dim(v.Runtime), v.Description)
	if v.Error != "" {
		fmt.Fprintf(io.Out, "%s  %s\n", indent, st.Paint(command.SGRRed, v.Error))
	}
}
