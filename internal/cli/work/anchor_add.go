package work

import (
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// anchorAddOptions are the arguments of 'atreides anchor add'.
type anchorAddOptions struct {
	priority string
	kind     string
	text     string
	asJSON   bool
	// what the anchor is about, at most one of them (a phase with a task)
	task, phase int
	file, agent string
}

// target is what the anchor is about: "task 3", "task 3 phase 2",
// "file x.go", "agent oracle"; "" for nothing in particular.
func (o *anchorAddOptions) target() (string, error) {
	n := 0
	for _, set := range []bool{o.task > 0, o.file != "", o.agent != ""} {
		if set {
			n++
		}
	}
	switch {
	case n > 1:
		return "", command.Usagef("an anchor is about one thing: give one of --task, --file and --agent")
	case o.phase > 0 && o.task == 0:
		return "", command.Usagef("--phase needs --task")
	case o.phase > 0:
		return fmt.Sprintf("task %d phase %d", o.task, o.phase), nil
	case o.task > 0:
		return fmt.Sprintf("task %d", o.task), nil
	case o.file != "":
		return "file " + o.file, nil
	case o.agent != "":
		return "agent " + o.agent, nil
	}
	return "", nil
}

func newAnchorAddCmd(io *command.IO) *cobra.Command {
	o := &anchorAddOptions{}
	cmd := &cobra.Command{
		Use:   "add TEXT...",
		Short: "add an anchor",
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			o.text = command.JoinArgs(args)
			return o.run(io)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.priority, "priority", "p", "medium", "critical, high, medium or low")
	f.StringVarP(&o.kind, "kind", "k", "fact", "decision, constraint or fact")
	f.BoolVar(&o.asJSON, "json", false, "print the new anchor as JSON")
	f.IntVar(&o.task, "task", 0, "the task the anchor is about (ranked higher while it or a task near it is in progress)")
	f.IntVar(&o.phase, "phase", 0, "the phase of --task the anchor is about")
	f.StringVar(&o.file, "file", "", "the file the anchor is about")
	f.StringVar(&o.agent, "agent", "", "the agent the anchor is about")
	command.CompleteValues(cmd, "priority", "critical", "high", "medium", "low")
	command.CompleteValues(cmd, "kind", "decision", "constraint", "fact")
	return cmd
}

func (o *anchorAddOptions) run(io *command.IO) error {
	if o.text == "" {
		return command.Usagef("anchor add needs text")
	}
	if _, err := anchors.ParsePriority(o.priority); err != nil {
		return command.Usagef("%v", err)
	}
	if _, err := anchors.ParseKind(o.kind); err != nil {
		return command.Usagef("%v", err)
	}
	target, err := o.target()
	if err != nil {
		return err
	}
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	var added anchors.Anchor
	err = command.UpdateProjectAt(root, func(p *state.Project) error {
		a, err := anchors.Add(p, o.kind, o.priority, o.text, "", time.Now().UTC())
		g := anchors.Key.Of(p)
		for i := range g.List {
			if g.List[i].ID == a.ID && target != "" {
				g.List[i].Target = target
				a.Target = target
			}
		}
		added = a
		return err
	})
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, view.AnchorOf(added, anchorStaleAfter(root), time.Now()))
	}
	about := ""
	if added.Target != "" {
		about = ", about " + added.Target
	}
	fmt.Fprintf(io.Out, "added anchor #%d (%s %s%s): %s\n", added.ID, added.Priority, added.Kind, about, added.Text)
	return nil
}
