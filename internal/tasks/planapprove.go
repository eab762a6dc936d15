package tasks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/atreides-dev/atreides/internal/actor"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// Approval is where a plan version stands with the user's approval.
type Approval struct {
	Version int
	Plan    Plan
	// Hash is the plan's PlanHash now.
	Hash string
	// Approved: the user approved this version and it says the same
	// since.
	Approved bool
	// Since is the version the user last approved when it is not the plan
	// as it is now (this version changed since, or an earlier one); 0
	// when none was approved or this one holds.
	Since int
	// Diff is what changed since the approved text (CanonicalPlan of
	// both, so moved markers and blank lines show nothing); "" when
	// nothing was approved, or the approval predates the text being kept
	// (Kept false).
	Diff string
	Kept bool
}

// diffLimit bounds the lines of a changed plan's diff shown.
const diffLimit = 400

// ApprovalOf is the approval of plan version (parsed as plan, read as
// src) of task t.
func ApprovalOf(t *taskboard.Task, version int, plan Plan, src []byte) Approval {
	a := Approval{Version: version, Plan: plan, Hash: PlanHash(src)}
	a.Approved = t.Approved == version && (t.ApprovedHash == a.Hash || t.ApprovedText == "" && t.ApprovedHash == legacyPlanHash(src))
	if a.Approved || t.Approved == 0 {
		return a
	}
	a.Since = t.Approved
	if t.ApprovedText != "" {
		a.Kept = true
		a.Diff = UnifiedDiff(fmt.Sprintf("approved (version %d)", t.Approved), fmt.Sprintf("now (version %d)", version),
			string(CanonicalPlan([]byte(t.ApprovedText))), string(CanonicalPlan(src)), diffLimit)
	}
	return a
}

// legacyPlanHash is the hash approvals were pinned to before
// CanonicalPlan (the text without its markers, whitespace as it was): an
// approval recorded then, which kept no text, still holds for the plan
// it pinned, exactly as strictly as it did.
func legacyPlanHash(src []byte) string {
	sum := sha256.Sum256(withoutMarkers(src))
	return hex.EncodeToString(sum[:])
}

// ErrNotUser is why a command that only the user may run was refused.
var ErrNotUser = errors.New("only the user approves a plan")

// MayApprove checks that the user approves a plan of r's board, as package actor tells
// who runs a command: a person at a terminal may; an agent's command
// (a host's marks in its environment) never, whatever it names; a
// command with neither (a script, or an agent's shell with its
// environment stripped) only where it acts for no session (CallerOf
// gives UserSession: the environment names none and no session worked
// in the project), so that an agent at work cannot approve its own plan.
func MayApprove(ctx context.Context, r *Repo, e actor.Env) error {
	if actor.Person(e) {
		return nil
	}
	if e.Getenv != nil && e.ByAgent() {
		return fmt.Errorf("%w: this command runs in an agent's shell; ask the user to run it at a terminal", ErrNotUser)
	}
	id, how, err := r.Caller(ctx, "", e)
	if err != nil {
		return err
	}
	if id != UserSession {
		return fmt.Errorf("%w: this command has no terminal and acts for session %s (%s); run it at a terminal", ErrNotUser, id, how)
	}
	return nil
}
