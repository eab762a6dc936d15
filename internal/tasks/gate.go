package tasks

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/shellcall"
)

// GateKinds are the events [Gate]'s handler runs on: a hook
// builds it for those alone.
var GateKinds = []event.Kind{event.PreTool}

// Gate is the plan approval gate: while the session holds a task in
// progress whose current plan the user has not approved (and the project
// asks for approval, tasks.plans.require_approval), a write outside the
// specs directory is denied, with what to do about it. Writing the plan
// itself stays possible, and so does a write outside the project (a
// scratch file in a temporary directory is not the task's work).
//
// It reads only the session's task record (SessionTask), never the
// board: on a tool call with no task held it costs one comparison, and
// the shell command's effects (shellcall.Effects, usually already
// walked by the guard) are asked for only while the gate is shut.
func Gate() engine.Handler {
	return engine.Handler{
		Name: "plan-approval", Priority: engine.High,
		Kinds:  GateKinds,
		Groups: SessionTaskKey.Group(),
		Handle: func(c *engine.Call) (event.Result, error) { return gate(c), nil },
	}
}

func gate(c *engine.Call) event.Result {
	t := SessionTaskKey.Of(c.State.Session)
	ev := c.Event
	if t.Number == 0 || t.Approved && t.Pinned == "" || c.Decision.Verdict == event.Deny {
		// Approved with no pin: the project asks for no approval.
		return event.Result{}
	}
	var paths, unknown []string
	switch ev.Tool.Name {
	case event.Write, event.Edit:
		for _, p := range ev.Tool.Paths {
			if !filepath.IsAbs(p) {
				p = filepath.Join(cmp.Or(ev.Cwd, ev.ProjectDir), p)
			}
			paths = append(paths, filepath.Clean(p))
		}
	case event.Shell:
		e := shellcall.Effects(c)
		paths, unknown = e.Writes, e.Unknown
	default:
		return event.Result{}
	}
	blocked := blockedWrites(ev.ProjectDir, t.SpecsDir, paths)
	if len(blocked) == 0 && len(unknown) == 0 {
		return event.Result{}
	}
	if t.Pinned != "" {
		// The record follows the file, so that the stop gate and the
		// compaction memory see the approval gone (the agent may stop
		// to ask the user) and back (the plan restored as approved).
		if t.Approved = planHolds(ev.ProjectDir, t); t.Approved {
			return event.Result{}
		}
	}
	what := "the write to " + strings.Join(blocked, ", ")
	if len(blocked) == 0 {
		what = "this command writes files atreides cannot list (" + strings.Join(unknown, "; ") + ")"
	}
	return event.Result{Verdict: event.Deny, Rule: "tasks.plan-approval", Reason: gateReason(t, what)}
}

// blockedWrites are the paths inside the project and outside the specs
// directory, relative to the root.
func blockedWrites(root, specs string, paths []string) []string {
	var out []string
	for _, p := range paths {
		rel, err := filepath.Rel(root, p)
		if err != nil || !filepath.IsLocal(rel) {
			continue // outside the project
		}
		rel = filepath.ToSlash(rel)
		if specs != "" && (rel == specs || strings.HasPrefix(rel, specs+"/")) {
			continue
		}
		out = append(out, rel)
	}
	return out
}

// planHolds reports whether the plan file still says what the user
// approved (its PlanHash is the pinned one). It is read only for a write
// the approval would let through; a plan that cannot be read does not
// hold.
func planHolds(root string, t *SessionTask) bool {
	base, rel := root, filepath.FromSlash(t.Plan)
	if filepath.IsAbs(rel) { // the specs directory is configured outside the project
		base, rel = filepath.Dir(rel), filepath.Base(rel)
	}
	src, err := confined.ReadFile(base, rel, maxPlanBytes)
	return err == nil && PlanHash(src) == t.Pinned
}

func gateReason(t *SessionTask, what string) string {
	if t.Pinned != "" {
		return fmt.Sprintf("Blocked: %s. The plan of task %d (%s), version %d at %s, changed since the user approved it, and an approval holds only for the plan as approved. "+
			"Tell the user what you changed and why, and ask them to approve it again (`atreides plan show %d` shows the change; they run `atreides plan approve %d`); until then write only the plan (under %s).",
			what, t.Number, t.Title, t.Version, t.Plan, t.Number, t.Number, t.SpecsDir)
	}
	if t.Plan == "" {
		return fmt.Sprintf("Blocked: %s. Task %d (%s) is in progress without a plan, and this project asks for an approved plan before the work starts. "+
			"Run `atreides plan new %d`, fill in the plan it prints, then ask the user to approve it (`atreides plan approve %d`); until then write only under %s.",
			what, t.Number, t.Title, t.Number, t.Number, t.SpecsDir)
	}
	return fmt.Sprintf("Blocked: %s. The plan of task %d (%s), version %d at %s, is not approved yet. "+
		"Show the user the plan and ask them to approve it (they run `atreides plan approve %d`); until then write only the plan (under %s).",
		what, t.Number, t.Title, t.Version, t.Plan, t.Number, t.SpecsDir)
}
