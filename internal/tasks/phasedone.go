package tasks

import (
	"cmp"
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// PhaseDone is what completing a plan phase did: 'atreides plan
// phase-done' and the phase_done tool say it each in their own words.
type PhaseDone struct {
	Task int
	// Phase is the phase (1-based) it was about; 0 with Already set when
	// every phase was completed before.
	Phase int
	// Title is the phase's title.
	Title string
	// Already is set when the phase was completed before: nothing ran.
	Already bool
	// Verification is the verification's outcome; nil when the phase has
	// no command (neither a "Verify:" line nor tasks.plans.verify), so it
	// was marked completed unverified. A verification that did not pass,
	// or was not run at all (Verification.Refused), leaves the phase as it
	// was.
	Verification *Verification
	// Next is the next phase not completed, 0 when none is left;
	// NextTitle its title.
	Next      int
	NextTitle string
	// Commit is the scoped commit made after it.
	Commit CommitResult
}

// Completed reports whether the phase is completed now, before or by
// this call.
func (d PhaseDone) Completed() bool {
	return d.Already || d.Verification == nil || d.Verification.Passed
}

// CompletePhase verifies phase k (0: the current one) of task n's plan
// and, only when its verification passes, marks it completed and makes
// the scoped commit. The command runs only as mayRun allows, and before
// any lock is taken (a test suite can take minutes; every hook of the
// project waits for the store's lock), so the phase is looked up again
// when it is marked. A verification that fails or may not run is a
// PhaseDone that is not Completed, not an error: errors are about the
// board and the plan (no such task, no plan, no such phase) or a command
// that could not start.
func (r *Repo) CompletePhase(ctx context.Context, n, k int) (PhaseDone, error) {
	d := PhaseDone{Task: n, Phase: k}
	t, err := r.Task(ctx, n)
	if err != nil {
		return d, err
	}
	version, _, plan, src, err := r.CurrentPlan(&t)
	if err != nil {
		return d, err
	}
	if d.Phase == 0 {
		if d.Phase = plan.Current(); d.Phase == 0 {
			d.Already = true
			return d, nil
		}
	}
	if d.Phase > len(plan.Phases) {
		return d, fmt.Errorf("task %d: the plan has %s, no phase %d", n, phasesWord(len(plan.Phases)), d.Phase)
	}
	ph := plan.Phases[d.Phase-1]
	d.Title = ph.Title
	if ph.Status == Completed {
		d.Already = true
		return d, nil
	}
	if command := cmp.Or(ph.Verify, r.Opts.Plans.Verify); command != "" {
		if err := r.mayRun(&t, version, src, ph.Verify != "", command); err != nil {
			d.Verification = &Verification{Command: command, Refused: err}
			return d, nil
		}
		v, err := Verify(ctx, r.Root, command, r.Opts.Plans.VerifyTimeout)
		if err != nil {
			return d, err
		}
		if d.Verification = &v; !v.Passed {
			return d, nil
		}
	}
	done, next, err := r.SetPhase(ctx, n, d.Phase, Completed)
	if err != nil {
		return d, err
	}
	d.Title, d.Next = done.Title, next
	if d.Commit, err = r.CommitScoped(ctx, Commit{Task: n, Phase: d.Phase, PhaseTitle: done.Title}); err != nil {
		return d, err
	}
	if next > 0 {
		// Read after the commit, as the next command would: the plan file
		// is the one SetPhase wrote.
		if t, err := r.Task(ctx, n); err == nil {
			if _, _, p, _, err := r.CurrentPlan(&t); err == nil && next <= len(p.Phases) {
				d.NextTitle = p.Phases[next-1].Title
			}
		}
	}
	return d, nil
}

// mayRun says why a phase's verification command must not run; nil when
// it may. A command from the plan, which the agent writes, runs only while
// the plan is word for word the version the user approved (PlanHash); one
// from the configuration needs no approval. Either way it runs only when
// the guard allows it as it would the agent's own command, or asks and
// the user confirms it (r.Confirm).
func (r *Repo) mayRun(t *taskboard.Task, version int, src []byte, fromPlan bool, command string) error {
	if fromPlan {
		switch {
		case t.Approved != version:
			return fmt.Errorf("plan version %d of task %d is not approved: ask the user to approve it (atreides plan approve %d)", version, t.Number, t.Number)
		case !ApprovalOf(t, version, Plan{}, src).Approved:
			return fmt.Errorf("plan changed since approval: ask the user to approve it again (atreides plan approve %d); atreides plan show %d shows what changed", t.Number, t.Number)
		}
	}
	err := policy.JudgeRun(policy.ForProject(r.Root), r.Hosts, command, r.Root, r.Root)
	if policy.Asks(err) && r.Confirm != nil && r.Confirm(command, err) {
		return nil
	}
	return err
}

// Task is a copy of task n as the store holds it.
func (r *Repo) Task(ctx context.Context, n int) (taskboard.Task, error) {
	var t taskboard.Task
	err := r.View(ctx, func(b *taskboard.Tasks) error {
		got, err := Get(b, n)
		if err == nil {
			t = *got
		}
		return err
	})
	return t, err
}
