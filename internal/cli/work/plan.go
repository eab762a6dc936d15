package work

import (
	"strconv"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

func NewPlanCmd(io *command.IO) *cobra.Command {
	return command.NewGroupCmd("plan <subcommand>",
		"a task's plans and research: show, next, new, approve, phase-start, phase-done, research, commit",
		`Work with the plans and research reports of a task on the board. A plan is
markdown under the specs directory (<specs>/<number>_<slug>/plans/
implementation-NNN.md); its phases are "## Phase K: title [NOT STARTED]"
headings, each with an optional "Verify: <command>" line. 'plan new' writes
the next version (a revision keeps completed phases completed and starts the
others again); 'plan approve' records the user's approval, without which a
task in progress writes only its plan (tasks.plans.require_approval);
'plan phase-done' marks a phase completed only when its verification passes;
'plan commit' commits a task's reports and plans once written.`,
		newPlanShowCmd(io),
		newPlanNextCmd(io),
		newPlanNewCmd(io),
		newPlanApproveCmd(io),
		newPlanPhaseStartCmd(io),
		newPlanPhaseDoneCmd(io),
		newPlanResearchCmd(io),
		newPlanCommitCmd(io),
	)
}

// phaseArgs are the arguments of 'plan phase-start' and 'plan
// phase-done': task N, then phase K when given.
type phaseArgs struct {
	task  string
	phase []string // the phase, when given
}

// bind is a phase command's positional arguments check: N [K], kept in a.
func (a *phaseArgs) bind(cmd *cobra.Command, args []string) error {
	if err := cobra.RangeArgs(1, 2)(cmd, args); err != nil {
		return err
	}
	a.task, a.phase = args[0], args[1:]
	return nil
}

// phaseNumber reads a phase number argument.
func phaseNumber(arg, cmd string) (int, error) {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 {
		return 0, command.Usagef("%s: %q is not a phase number", cmd, arg)
	}
	return n, nil
}
