package work

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/actor"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

func NewTaskCmd(io *command.IO) *cobra.Command {
	list := newTaskListCmd(io)
	cmd := command.NewListGroupCmd("task [subcommand]",
		"the project's tasks: add, list, show, start, done, abandon, block, claim, ready, depend, clean",
		`Tasks are the project's shared work, for people and agents: numbered,
with a lifecycle (not started, researched, planned, in progress, then
completed or abandoned, or blocked with a reason), a priority,
dependencies and a claim (the session, and agent, working on one).
They are kept in the project's state; the files under .atreides/specs
(config tasks.dir) are generated from it after every change.

start, claim and ready act for the calling session: --session (another
session's only for a person at a terminal), else $CLAUDE_CODE_SESSION_ID,
else $ATREIDES_SESSION_ID, else the project's most recently active
session, else "user" (a person at a terminal).

Without a subcommand, task lists the open tasks, as 'task list' does
(and takes its flags).`,
		list,
		newTaskAddCmd(io),
		list,
		newTaskShowCmd(io),
		newTaskStartCmd(io),
		newTaskSetCmd(io, "done", tasks.Completed, "mark a task completed"),
		newTaskSetCmd(io, "abandon", tasks.Abandoned, "abandon a task (--reason says why)"),
		newTaskSetCmd(io, "block", tasks.Blocked, "mark a task blocked (--reason is required)"),
		newTaskClaimCmd(io),
		newTaskReadyCmd(io),
		newTaskDependCmd(io),
		newTaskRouteCmd(io),
		newTaskSyncCmd(io),
		newTaskCleanCmd(io),
		newTaskReviewedCmd(io),
	)
	for _, sub := range cmd.Commands() {
		// The commands whose usage starts "N" or "[N]" take a task number.
		if w := strings.Fields(sub.Use); len(w) > 1 && (w[1] == "N" || w[1] == "[N]") {
			sub.ValidArgsFunction = command.CompleteWith(io, taskCompletions)
		}
	}
	return cmd
}

// taskCompletions are the numbers of the project's open tasks, with their
// titles, for the shell; none, and no state created, without state.
func taskCompletions(io *command.IO) []string {
	root, err := command.CwdRoot(io)
	if err != nil || !command.HasState(root) {
		return nil
	}
	var out []string
	_ = tasks.Open(root, tasks.LoadOptions(root)).View(context.Background(), func(b *taskboard.Tasks) error {
		for _, t := range b.List {
			if !tasks.Closed(t.Status) {
				out = append(out, strconv.Itoa(t.Number)+"\t"+command.OneLine(t.Title, 60))
			}
		}
		return nil
	})
	return out
}

// taskRepo opens the task board of the project of the working directory:
// every task command reads and changes it through here.
func taskRepo(io *command.IO) (*tasks.Repo, error) {
	root, err := command.CwdRoot(io)
	if err != nil {
		return nil, err
	}
	r := tasks.Open(root, tasks.LoadOptions(root))
	r.Hosts = all.Guard()
	return r, nil
}

// taskArg reads a command's task number argument and opens the board of
// the working directory's project.
func taskArg(io *command.IO, arg string) (*tasks.Repo, int, error) {
	n, err := taskNumber(arg)
	if err != nil {
		return nil, 0, err
	}
	r, err := taskRepo(io)
	return r, n, err
}

// taskNumber reads a task number, with or without a leading '#'.
func taskNumber(arg string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(arg, "#"))
	if err != nil || n <= 0 {
		return 0, command.Usagef("%q is not a task number", arg)
	}
	return n, nil
}

// taskNumbers reads a comma-separated list of task numbers (--blocked-by 1,2).
func taskNumbers(flag string, vals []string) ([]int, error) {
	var out []int
	for _, v := range vals {
		for f := range strings.SplitSeq(v, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			n, err := taskNumber(f)
			if err != nil {
				return nil, command.Usagef("--%s: %q is not a task number", flag, f)
			}
			out = append(out, n)
		}
	}
	return out, nil
}

// parseTaskStatus reads a status as typed on a command line: "in progress",
// "in-progress" or "in_progress".
func parseTaskStatus(s string) (string, error) {
	st := strings.ToLower(strings.NewReplacer("-", " ", "_", " ").Replace(strings.TrimSpace(s)))
	for _, v := range tasks.Statuses {
		if v == st {
			return v, nil
		}
	}
	return "", command.Usagef("status %q is not one of %s", s, strings.Join(tasks.Statuses, ", "))
}

// claimer is the --session and --agent of start, claim and ready.
type claimer struct {
	session, agent string
}

func (c *claimer) flags(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&c.session, "session", "s", "", "the session that claims (default: the calling session)")
	cmd.Flags().StringVar(&c.agent, "agent", "", "the agent of the session that claims (default: its lead agent)")
}

// resolve binds the claim to the calling session (tasks.Repo.Caller).
func (c *claimer) resolve(io *command.IO, r *tasks.Repo) (taskboard.TaskClaim, error) {
	if err := actor.ActAs(c.session, command.Actor(io)); err != nil {
		return taskboard.TaskClaim{}, err
	}
	id, _, err := r.Caller(context.Background(), c.session, command.Actor(io))
	return taskboard.TaskClaim{Session: id, Agent: c.agent}, err
}

// change is taskChange of the task named by arg, for the session
// and agent c resolves to (start, claim).
func (c *claimer) change(io *command.IO, arg, cmdName string, asJSON bool, fn func(b *taskboard.Tasks, n int, by taskboard.TaskClaim, now time.Time) (*taskboard.Task, error)) error {
	r, n, err := taskArg(io, arg)
	if err != nil {
		return err
	}
	by, err := c.resolve(io, r)
	if err != nil {
		return err
	}
	return updateTask(io, r, cmdName, asJSON, func(b *taskboard.Tasks, now time.Time) (*taskboard.Task, error) {
		return fn(b, n, by, now)
	})
}

// taskChange runs fn on the board of the working directory's project as
// updateTask does.
func taskChange(io *command.IO, cmdName string, asJSON bool, fn func(b *taskboard.Tasks, now time.Time) (*taskboard.Task, error)) error {
	r, err := taskRepo(io)
	if err != nil {
		return err
	}
	return updateTask(io, r, cmdName, asJSON, fn)
}

// updateTask runs fn on r's board and prints the task it returns, as
// JSON or as one line; a claim refused for another holder ends the
// command as taskFailed says.
func updateTask(io *command.IO, r *tasks.Repo, cmdName string, asJSON bool, fn func(b *taskboard.Tasks, now time.Time) (*taskboard.Task, error)) error {
	var v view.Task
	err := r.Update(context.Background(), func(b *taskboard.Tasks, now time.Time) error {
		t, err := fn(b, now)
		if err == nil {
			v = view.TaskOf(t)
		}
		return err
	})
	if err != nil {
		return taskFailed(io, cmdName, asJSON, err)
	}
	if asJSON {
		return command.PrintJSON(io, v)
	}
	printTaskLine(io, v)
	return nil
}

// taskFailed ends a command whose change was refused. A claim held by
// another session is the one refusal a script must act on (wait, pick
// another task, or force), so with --json it is also printed as a JSON
// object on stdout naming the holder; the message goes to stderr and the
// exit status is 1 either way.
func taskFailed(io *command.IO, cmdName string, asJSON bool, err error) error {
	var held *tasks.ClaimedError
	if !asJSON || !errors.As(err, &held) {
		return err
	}
	fmt.Fprintf(io.Err, "atreides %s: %v\n", cmdName, err)
	if perr := command.PrintJSON(io, view.ClaimError{Error: err.Error(), Task: held.Task,
		ClaimedBy: view.Claim{Session: held.Owner.Session, Agent: held.Owner.Agent, Since: view.TimeOrNil(held.Owner.Time)}}); perr != nil {
		return perr
	}
	return command.ExitStatus(command.ExitFailure)
}

// printTaskLine is one task on one line: number, marker, priority, title.
func printTaskLine(io *command.IO, v view.Task) {
	st := command.StyleOf(io)
	fmt.Fprintf(io.Out, "%s %s %s %s%s\n", st.Bold(fmt.Sprintf("#%d", v.Number)), paintMarker(st, v.Status), v.Priority, v.Title, claimSuffix(st, v.ClaimedBy))
}

// paintMarker colours a status marker by how the task stands.
func paintMarker(st command.Style, status string) string {
	return statusPaint(st, status)(tasks.Marker(status))
}

// statusPaint is how a task's status is painted: by how the task stands.
func statusPaint(st command.Style, status string) func(string) string {
	code := command.SGRCyan
	switch status {
	case tasks.Completed:
		code = command.SGRGreen
	case tasks.Abandoned:
		return st.Dim
	case tasks.Blocked:
		code = command.SGRRed
	case tasks.InProgress:
		code = command.SGRYellow
	}
	return func(s string) string { return st.Paint(code, s) }
}

// claimSuffix is " (claimed by …)" or "".
func claimSuffix(st command.Style, c view.Claim) string {
	if c.Session == "" {
		return ""
	}
	return " " + st.Dim("(claimed by "+claimerName(c)+")")
}

func claimerName(c view.Claim) string {
	if c.Agent != "" {
		return c.Agent + "@" + c.Session
	}
	return c.Session
}
