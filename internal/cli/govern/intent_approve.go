package govern

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/actor"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// intentDecideOptions are the flags of 'atreides intent approve' and
// 'intent deny'.
type intentDecideOptions struct {
	approve bool
	note    string
	asJSON  bool
}

func newIntentApproveCmd(io *command.IO) *cobra.Command {
	o := &intentDecideOptions{approve: true}
	return o.command(io, &cobra.Command{
		Use: "approve REQUEST", Short: "approve an agent's scope expansion request",
		Long: `Approve scope expansion request REQUEST (its number in 'atreides intent
requests'): its paths join the intent's owned scope, and the agent that
asked is told at its next event. The approval is kept in the project's
state store, not in .atreides/intents.yaml: that file is the intents'
input, and editing it approves no request. Deciding is the user's: an
agent's command (or one without a terminal) is refused.`,
	})
}

// command completes approve's or deny's command: its arguments, flags and run.
func (o *intentDecideOptions) command(io *command.IO, cmd *cobra.Command) *cobra.Command {
	cmd.Args = command.ExactlyOne("intent " + strings.Fields(cmd.Use)[0] + " needs one scope request number")
	cmd.RunE = func(_ *cobra.Command, args []string) error { return o.run(io, args[0]) }
	cmd.Flags().StringVarP(&o.note, "note", "m", "", "a word for the agent, told with the decision")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the decided request as JSON")
	return cmd
}

// maxNote bounds the note the agent is told.
const maxNote = 300

func (o *intentDecideOptions) run(io *command.IO, arg string) error {
	id, err := strconv.Atoi(strings.TrimPrefix(arg, "#"))
	if err != nil || id <= 0 {
		return command.Usagef("REQUEST is a scope request's number (see 'atreides intent requests'), not %q", arg)
	}
	verb := map[bool]string{true: "approve", false: "deny"}[o.approve]
	if !actor.Person(command.Actor(io)) {
		// A scope widening an agent could grant itself would be no gate.
		return fmt.Errorf("deciding a scope request is the user's: run 'atreides intent %s %d' at a terminal (this command runs in an agent's shell, or without a terminal)", verb, id)
	}
	if len(o.note) > maxNote {
		return command.Usagef("the note is %d bytes; keep it under %d", len(o.note), maxNote)
	}
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	r, err := governance.Decide(context.Background(), root, id, o.approve, strings.TrimSpace(o.note), time.Now())
	if err != nil {
		return fmt.Errorf("%s scope request %d: %w", verb, id, err)
	}
	if o.asJSON {
		return command.PrintJSON(io, view.ScopeRequestOf(r))
	}
	// The paths, the intent and the session came from the agent's
	// request: shown without their escape sequences.
	paths, in := command.Text(strings.Join(r.Paths, ", ")), command.Text(r.Intent)
	switch {
	case r.Status == "approved":
		fmt.Fprintf(io.Out, "approved scope request #%d: intent %s now also owns %s\n", r.ID, in, paths)
	default:
		fmt.Fprintf(io.Out, "denied scope request #%d (%s for intent %s)\n", r.ID, paths, in)
	}
	if r.Session != "" {
		fmt.Fprintf(io.Out, "session %s is told at its next event\n", command.Text(r.Session))
	}
	return nil
}
