package work

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// taskShowOptions are the arguments of 'atreides task show'.
type taskShowOptions struct {
	arg    string
	asJSON bool
}

func newTaskShowCmd(io *command.IO) *cobra.Command {
	o := &taskShowOptions{}
	cmd := &cobra.Command{
		Use:   "show N",
		Short: "show a task: every field, its dependencies, children, plans and research",
		Args:  command.ExactlyOne("task show needs one task number"),
		RunE: func(_ *cobra.Command, args []string) error {
			o.arg = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	return cmd
}

func (o *taskShowOptions) run(io *command.IO) error {
	r, n, err := taskArg(io, o.arg)
	if err != nil {
		return err
	}
	var v view.TaskDetail
	var task taskboard.Task
	err = r.View(context.Background(), func(b *taskboard.Tasks) error {
		t, err := tasks.Get(b, n)
		if err != nil {
			return err
		}
		v, task = taskDetail(b, t), *t
		return nil
	})
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, v)
	}
	printTaskDetail(io, v, approvalNote(r, &task))
	return nil
}

// approvalNote is what the approval field adds when the approved plan
// changed since (an approval holds for the text approved): "" when it
// holds, or when there is no approval or no plan to read.
func approvalNote(r *tasks.Repo, t *taskboard.Task) string {
	if t.Approved == 0 {
		return ""
	}
	version, _, plan, src, err := r.CurrentPlan(t)
	if err != nil || tasks.ApprovalOf(t, version, plan, src).Approved || version != t.Approved {
		return ""
	}
	return fmt.Sprintf(", changed since: needs approval again (atreides plan show %d)", t.Number)
}

// taskDetail is t with its dependencies and children as they stand.
func taskDetail(b *taskboard.Tasks, t *taskboard.Task) view.TaskDetail {
	v := view.TaskDetail{Task: view.TaskOf(t), Dependencies: []view.TaskRef{}, Children: []view.TaskRef{}}
	for _, d := range t.BlockedBy {
		ref := view.TaskRef{Number: d, Status: "missing"}
		if dt := b.Task(d); dt != nil {
			ref.Title, ref.Status = dt.Title, dt.Status
		}
		v.Dependencies = append(v.Dependencies, ref)
	}
	for i := range b.List {
		if c := &b.List[i]; c.Parent == t.Number {
			v.Children = append(v.Children, view.TaskRef{Number: c.Number, Title: c.Title, Status: c.Status})
		}
	}
	return v
}

func printTaskDetail(io *command.IO, v view.TaskDetail, approval string) {
	st := command.StyleOf(io)
	fmt.Fprintf(io.Out, "%s %s %s\n", st.Bold(fmt.Sprintf("#%d", v.Number)), paintMarker(st, v.Status), st.Bold(command.Text(v.Title)))
	field := func(name, value string) {
		if value != "" {
			fmt.Fprintf(io.Out, "  %-11s %s\n", name+":", command.Text(value))
		}
	}
	field("reason", v.Reason)
	field("priority", v.Priority)
	field("effort", v.Effort)
	field("language", v.Language)
	if v.Parent != 0 {
		field("parent", fmt.Sprintf("#%d", v.Parent))
	}
	if v.ClaimedBy.Session != "" {
		field("claimed by", claimerName(v.ClaimedBy)+" since "+stamp(v.ClaimedBy.Since))
	}
	field("created", stamp(&v.Created))
	field("updated", stamp(&v.Updated))
	field("started", stamp(v.Started))
	field("completed", stamp(v.Completed))
	if v.Approved != 0 {
		field("approved", fmt.Sprintf("plan version %d%s", v.Approved, approval))
	}
	if v.Phase != 0 {
		field("phase", fmt.Sprint(v.Phase))
	}
	if len(v.Errors) > 0 {
		field("errors", strings.Trim(fmt.Sprint(v.Errors), "[]"))
	}
	if v.Description != "" {
		fmt.Fprintf(io.Out, "\n%s\n", command.Text(v.Description))
	}
	refs := func(title string, rs []view.TaskRef) {
		if len(rs) == 0 {
			return
		}
		fmt.Fprintf(io.Out, "\n%s:\n", title)
		for _, r := range rs {
			fmt.Fprintf(io.Out, "  #%d %s %s\n", r.Number, paintMarker(st, r.Status), command.Text(r.Title))
		}
	}
	refs("waits for", v.Dependencies)
	refs("children", v.Children)
	paths := func(title string, ps []string) {
		if len(ps) == 0 {
			return
		}
		fmt.Fprintf(io.Out, "\n%s:\n", title)
		for _, p := range ps {
			fmt.Fprintf(io.Out, "  %s\n", command.Text(p))
		}
	}
	paths("research", v.Research)
	paths("plans", v.Plans)
}

// stamp is a time for people, "" for none.
func stamp(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
