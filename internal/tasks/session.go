package tasks

import (
	"cmp"
	"errors"
	"path/filepath"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// The hooks of a session read the task it works on from a small record in
// the session (SessionTask) rather than from the board, which they
// must not load on every tool call. Every change of the board goes through
// Repo.Update, which rewrites, in the same transaction, the record of each
// session whose claimed tasks the change touched: so the record cannot
// drift from the board through any command, whoever wrote it.

// claimKey is what of a task the session record depends on.
type claimKey struct {
	session, status string
	updated         time.Time
	plans, approved int
	phase           int
}

func keyOf(t *taskboard.Task) claimKey {
	return claimKey{t.Claim.Session, t.Status, t.Updated, len(t.Plans), t.Approved, t.Phase}
}

// claimKeys notes the claimed tasks before a change, by number.
func claimKeys(b *taskboard.Tasks) map[int]claimKey {
	keys := map[int]claimKey{}
	for i := range b.List {
		if t := &b.List[i]; t.Claim.Session != "" {
			keys[t.Number] = keyOf(t)
		}
	}
	return keys
}

// touchedSessions are the sessions that claimed, or now claim, a task the
// change touched.
func touchedSessions(b *taskboard.Tasks, before map[int]claimKey) []string {
	var out []string
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for i := range b.List {
		t := &b.List[i]
		old, was := before[t.Number]
		if k := keyOf(t); was && k == old || !was && t.Claim.Session == "" {
			continue
		}
		add(old.session)
		add(t.Claim.Session)
	}
	return out
}

// syncSessions rewrites the task record of every session the change
// touched. A session without a record yet gets its record at its first
// hook event, which cannot see the task until the next change: claims
// come from sessions that ran hooks already. A damaged record is left to
// the hook that loads it (it quarantines it).
func (r *Repo) syncSessions(tx *store.Tx, b *taskboard.Tasks, before map[int]claimKey) error {
	for _, id := range touchedSessions(b, before) {
		s, err := state.FindSession(tx, id)
		var damaged *state.DamagedError
		switch {
		case errors.As(err, &damaged), s == nil:
			continue
		case err != nil:
			return err
		}
		rec := r.SessionRecord(b, id)
		cur := SessionTaskKey.Of(s)
		if rec == *cur {
			continue
		}
		*cur = rec
		if err := state.SaveSession(tx, s); err != nil {
			return err
		}
	}
	return nil
}

// SessionRecord is what session's hooks need of the task it holds in
// progress (the first claimed by the session, any of its agents); zero
// when it holds none. The plan is read from its file: a plan that cannot
// be read counts as no plan.
func (r *Repo) SessionRecord(b *taskboard.Tasks, session string) SessionTask {
	for _, t := range Claimed(b, session, "*") {
		if t.Status != InProgress {
			continue
		}
		rec := SessionTask{Number: t.Number, Title: t.Title, SpecsDir: filepath.ToSlash(r.relSpecs())}
		version, p, plan, src, err := r.CurrentPlan(t)
		if err != nil {
			rec.Approved = !r.Opts.Plans.RequireApproval
			return rec
		}
		rec.Plan, rec.Version = p, version
		rec.Approved = !r.Opts.Plans.RequireApproval
		if a := ApprovalOf(t, version, plan, src); !rec.Approved && a.Approved {
			// The gate checks the plan against this pin whenever it
			// would let a write through: an edit of the plan file is no
			// change of the board, so this record would not see it.
			rec.Approved, rec.Pinned = true, a.Hash
		}
		rec.Phases, rec.Done, rec.Phase = len(plan.Phases), plan.Done(), plan.Current()
		if rec.Phase > 0 {
			ph := plan.Phases[rec.Phase-1]
			rec.PhaseTitle, rec.Verify = ph.Title, cmp.Or(ph.Verify, r.Opts.Plans.Verify)
		}
		return rec
	}
	return SessionTask{}
}
