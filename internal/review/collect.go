package review

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/consensus"
	"github.com/atreides-dev/atreides/internal/state"
)

// Outcomes of a reviewer in the report.
const (
	Answered = "answered"  // its findings were read (maybe none)
	Failed   = "failed"    // its task failed, was cancelled or never ran
	NoJSON   = "no-json"   // it answered without the findings JSON
	TimedOut = "timed out" // still running at the review's deadline
	Pending  = "pending"   // still running (a report not yet final)
)

// Collect waits up to wait for the run's reviewers to end, then, when
// they all have (or the run's deadline passed, which cancels the rest),
// merges their findings and writes the report; done is false when it is
// not final yet and the caller should collect again later.
func Collect(ctx context.Context, reg *background.Registry, run *Run, wait time.Duration, poll time.Duration) (rep *Report, done bool, err error) {
	if poll <= 0 {
		poll = 500 * time.Millisecond
	}
	// A final report is kept: its tasks may have been forgotten since.
	if run.Final != nil {
		return run.Final, true, nil
	}
	until := reg.Now().Add(wait)
	for {
		tasks, err := look(ctx, reg, run)
		if err != nil {
			return nil, false, err
		}
		now := reg.Now()
		pending := pendingIDs(run, tasks)
		if len(pending) > 0 && !now.Before(run.Deadline) {
			if err := cancelLate(ctx, reg, pending); err != nil {
				return nil, false, err
			}
			if tasks, err = look(ctx, reg, run); err != nil {
				return nil, false, err
			}
			return finish(ctx, reg, run, build(reg.Root, run, tasks, pending, now))
		}
		if len(pending) == 0 {
			return finish(ctx, reg, run, build(reg.Root, run, tasks, nil, now))
		}
		if !now.Before(until) {
			return build(reg.Root, run, tasks, nil, now), false, nil
		}
		select {
		case <-ctx.Done():
			return nil, false, ctx.Err()
		case <-time.After(min(poll, until.Sub(now), run.Deadline.Sub(now))):
		}
	}
}

// finish writes the report and marks the reviewers' tasks told: the
// report is what the caller reads, and the background notification of
// the same tasks at the session's next event would only repeat it.
func finish(ctx context.Context, reg *background.Registry, run *Run, rep *Report) (*Report, bool, error) {
	if err := write(reg.Root, rep); err != nil {
		return nil, false, err
	}
	run.Final = rep
	if err := save(reg.Root, run); err != nil {
		return nil, false, fmt.Errorf("keep the review report: %w", err)
	}
	err := reg.Update(ctx, func(p *state.Project, _ time.Time) error {
		b := bgtasks.Key.Of(p)
		for _, s := range run.Slots {
			if t := b.Task(s.TaskID); s.TaskID != "" && t != nil && !background.Pending(t) {
				t.Notified = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("mark the reviewers' tasks told: %w", err)
	}
	return rep, true, nil
}

// look reads the run's tasks; through an update, so that a task whose
// supervisor died is failed rather than waited on until the deadline.
func look(ctx context.Context, reg *background.Registry, run *Run) (map[string]bgtasks.Task, error) {
	out := map[string]bgtasks.Task{}
	err := reg.Update(ctx, func(p *state.Project, _ time.Time) error {
		b := bgtasks.Key.Of(p)
		for _, s := range run.Slots {
			if t := b.Task(s.TaskID); s.TaskID != "" && t != nil {
				out[s.TaskID] = *t
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the reviewers' tasks: %w", err)
	}
	return out, nil
}

func pendingIDs(run *Run, tasks map[string]bgtasks.Task) []string {
	var ids []string
	for _, s := range run.Slots {
		if t, ok := tasks[s.TaskID]; ok && background.Pending(&t) {
			ids = append(ids, s.TaskID)
		}
	}
	return ids
}

// cancelLate stops the reviewers still running at the deadline, one by
// one: one that ended meanwhile is no reason to leave the others running.
func cancelLate(ctx context.Context, reg *background.Registry, ids []string) error {
	for _, id := range ids {
		err := reg.Update(ctx, func(p *state.Project, now time.Time) error {
			if t := bgtasks.Key.Of(p).Task(id); t != nil && background.Pending(t) {
				return background.CancelTask(bgtasks.Key.Of(p), id, now, reg.Alive)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("cancel the late reviewer %s: %w", id, err)
		}
	}
	return nil
}

// build reads every reviewer's outcome and merges the findings of those
// that answered, in the run's reviewer order.
func build(root string, run *Run, tasks map[string]bgtasks.Task, late []string, now time.Time) *Report {
	rep := &Report{ID: run.ID, Task: run.Task, Focus: run.Focus, Dir: run.Dir, Started: run.Started, Ended: now.UTC()}
	var reports []consensus.Report
	for _, s := range run.Slots {
		st := Status{Reviewer: s.Reviewer, TaskID: s.TaskID}
		t, ok := tasks[s.TaskID]
		switch {
		case s.Error != "":
			st.Outcome, st.Error = Failed, s.Error
		case !ok:
			st.Outcome, st.Error = Failed, "its background task "+s.TaskID+" is gone from the registry"
		case slices.Contains(late, s.TaskID) && t.Status == background.Cancelled:
			// Late and cancelled; one that ended between the look and
			// the cancel is read as it ended.
			st.Outcome, st.Error = TimedOut, fmt.Sprintf("still running at the review's deadline (%s after its start); cancelled", run.Deadline.Sub(run.Started).Round(time.Second))
		case background.Pending(&t):
			st.Outcome = Pending
		case t.Status != background.Completed:
			st.Outcome, st.Error = Failed, fmt.Sprintf("its task %s", t.Status)
			if t.Error != "" {
				st.Error += ": " + t.Error
			}
		default:
			found, err := findings(root, &t)
			if err != nil {
				st.Outcome, st.Error = NoJSON, err.Error()
				break
			}
			st.Outcome, st.Findings = Answered, len(found)
			reports = append(reports, consensus.Report{Reviewer: s.Label(), Findings: found})
		}
		rep.Reviewers = append(rep.Reviewers, st)
	}
	rep.Findings = consensus.Merge(reports)
	if rep.Findings == nil {
		rep.Findings = []consensus.Merged{}
	}
	return rep
}

// findings reads a reviewer's findings from its answer, else from its
// CLI's whole stdout: an answer printed as plain text whose last line is
// the findings object alone reads, to the answer parser, as a JSON event
// stream with no answer in it (Copilot CLI's --silent prints plain text).
func findings(root string, t *bgtasks.Task) ([]consensus.Finding, error) {
	found, err := consensus.Parse(background.ResultOf(root, t.ID, t.Result))
	if err == nil {
		return found, nil
	}
	rel, _ := filepath.Rel(root, filepath.Join(background.Dir(root, t.ID), "stdout"))
	if out, rerr := readFile(root, rel); rerr == nil {
		if again, perr := consensus.Parse(string(out)); perr == nil {
			return again, nil
		}
	}
	return nil, err
}
