package tasks

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// PlanOptions are tasks.plans.
type PlanOptions struct {
	// RequireApproval: a task in progress writes only under the specs
	// directory until the user approved its current plan.
	RequireApproval bool
	// Verify is the verification command of a phase whose plan names
	// none; "" for none.
	Verify        string
	VerifyTimeout time.Duration
}

func planOptions(c *config.TasksPlans) PlanOptions {
	return PlanOptions{RequireApproval: c.RequireApproval, Verify: c.Verify,
		VerifyTimeout: time.Duration(c.VerifyTimeoutSeconds) * time.Second}
}

// maxPlanBytes bounds a plan or report file atreides reads.
const maxPlanBytes = 1 << 20

// maxSlug bounds a task directory's slug.
const maxSlug = 40

// Slug is a title as a directory name: lowercase ASCII letters and digits,
// other runs of characters one hyphen, at most maxSlug bytes cut at a
// hyphen when there is one; "task" when nothing is left.
func Slug(title string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
		default:
			hyphen = true
		}
	}
	s := b.String()
	if len(s) > maxSlug {
		s = s[:maxSlug]
		if i := strings.LastIndexByte(s, '-'); i > maxSlug/2 {
			s = s[:i]
		}
		s = strings.TrimRight(s, "-")
	}
	if s == "" {
		return "task"
	}
	return s
}

// Kinds of task files: plans and research reports.
const (
	kindPlan     = "plans/implementation-"
	kindResearch = "reports/research-"
)

// taskDir is the task's directory relative to the specs directory
// (specs, as the task's files record it): the one its first file went to
// (a title changed since does not move the files), else <number>_<slug>.
func taskDir(specs string, t *taskboard.Task) string {
	specs = filepath.ToSlash(specs)
	for _, p := range slices.Concat(t.Plans, t.Research) {
		if rest, ok := strings.CutPrefix(p, specs+"/"); ok {
			if dir, _, ok := strings.Cut(rest, "/"); ok {
				return dir
			}
		}
	}
	return fmt.Sprintf("%d_%s", t.Number, Slug(t.Title))
}

// relSpecs is the specs directory relative to the root (as configured
// when it is absolute: the paths recorded are then absolute too).
func (r *Repo) relSpecs() string {
	if rel, err := filepath.Rel(r.Root, r.SpecsDir()); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return r.SpecsDir()
}

// ReadTaskFile reads a plan or report the task records (a path relative
// to the project root), never through a link out of the specs directory.
func (r *Repo) ReadTaskFile(p string) ([]byte, error) {
	specs := filepath.ToSlash(r.relSpecs())
	rel, ok := strings.CutPrefix(p, specs+"/")
	if !ok {
		return nil, fmt.Errorf("%s is not under the specs directory %s", p, specs)
	}
	base, prefix := r.specsBase()
	return confined.ReadFile(base, filepath.Join(prefix, filepath.FromSlash(rel)), maxPlanBytes)
}

// specsBase is where the task files are opened from: the project root
// and the specs directory below it (nothing below the root is followed
// through a link), or the specs directory itself when it is configured
// outside the project.
func (r *Repo) specsBase() (base, prefix string) {
	if rel := r.relSpecs(); !filepath.IsAbs(rel) {
		return r.Root, rel
	}
	return r.SpecsDir(), ""
}

// writeTaskFile puts data at rel (below the specs directory) in one step;
// fresh refuses to replace a file that exists.
func (r *Repo) writeTaskFile(rel string, data []byte, fresh bool) error {
	dir, name := path.Split(rel)
	base, prefix := r.specsBase()
	d, err := confined.MkdirAll(base, filepath.Join(prefix, filepath.FromSlash(path.Clean(dir))), 0o755)
	if err != nil {
		return err
	}
	defer d.Close()
	if fresh {
		if _, err := d.ReadFile(name, maxPlanBytes); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s exists already and is not recorded on the task; move it aside first", d.Path(name))
		}
	}
	return d.ReplaceFile(name, data, true)
}

// CurrentPlan reads the task's current plan version: its number, path and
// phases, and its source. The phases' statuses are the store's
// ([recordedStatus]); the file's markers only say where a hand edit
// disagrees (Phase.FileStatus).
func (r *Repo) CurrentPlan(t *taskboard.Task) (version int, p string, plan Plan, src []byte, err error) {
	if len(t.Plans) == 0 {
		return 0, "", Plan{}, nil, fmt.Errorf("task %d has no plan yet (atreides plan new %d)", t.Number, t.Number)
	}
	p = t.Plans[len(t.Plans)-1]
	src, err = r.ReadTaskFile(p)
	if err != nil {
		return 0, p, Plan{}, nil, fmt.Errorf("read the plan of task %d: %w", t.Number, err)
	}
	version = len(t.Plans)
	plan = ParsePlan(src)
	if status, ok := recordedStatus(t, version); ok {
		for k := range plan.Phases {
			ph := &plan.Phases[k]
			st := NotStarted
			if k < len(status) {
				st = status[k]
			}
			if ph.Status != st {
				ph.FileStatus = ph.Status
			}
			ph.Status = st
		}
	}
	return version, p, plan, src, nil
}

// recordedStatus are the statuses the store records for the plan
// version's phases; false when it records none for it: a plan written
// before atreides recorded them, whose markers atreides itself wrote
// then, is read from its file until its next change records them.
func recordedStatus(t *taskboard.Task, version int) ([]string, bool) {
	if t.PhaseVersion != version || version == 0 {
		return nil, false
	}
	return t.PhaseStatus, true
}

// statusesOf are the statuses of a parsed plan's phases, in order.
func statusesOf(p Plan) []string {
	out := make([]string, len(p.Phases))
	for i, ph := range p.Phases {
		out[i] = ph.Status
	}
	return out
}

// NewPlan writes the task's next plan version and records it: the first
// from the template, a later one as a revision of the one before (see
// [Revise]). The task becomes planned unless it is further along; the new
// version needs its own approval.
func (r *Repo) NewPlan(ctx context.Context, n int) (p string, version int, err error) {
	err = r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		t, err := Get(b, n)
		if err != nil {
			return err
		}
		if Closed(t.Status) {
			return fmt.Errorf("task %d is %s", n, t.Status)
		}
		var text []byte
		version = len(t.Plans) + 1
		if version == 1 {
			text = []byte(PlanTemplate(t, r.Opts.Plans.Verify))
		} else {
			_, prev, plan, src, err := r.CurrentPlan(t)
			if err != nil {
				return err
			}
			text = Revise(WithStatuses(src, statusesOf(plan)), path.Base(prev), version)
		}
		rel := fmt.Sprintf("%s/%s%03d.md", taskDir(r.relSpecs(), t), kindPlan, version)
		if err := r.writeTaskFile(rel, text, true); err != nil {
			return err
		}
		p = path.Join(filepath.ToSlash(r.relSpecs()), rel)
		t.Plans = append(t.Plans, p)
		t.PhaseVersion, t.PhaseStatus = version, statusesOf(ParsePlan(text))
		t.Phase = 0
		if t.Status == NotStarted || t.Status == Researched {
			t.Status = Planned
		}
		t.Updated = now
		return nil
	})
	return p, version, err
}

// NewResearch writes the task's next research report from the template and
// records it; a task not started becomes researched.
func (r *Repo) NewResearch(ctx context.Context, n int) (p string, number int, err error) {
	err = r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		t, err := Get(b, n)
		if err != nil {
			return err
		}
		if Closed(t.Status) {
			return fmt.Errorf("task %d is %s", n, t.Status)
		}
		number = len(t.Research) + 1
		rel := fmt.Sprintf("%s/%s%03d.md", taskDir(r.relSpecs(), t), kindResearch, number)
		if err := r.writeTaskFile(rel, []byte(ResearchTemplate(t, number)), true); err != nil {
			return err
		}
		p = path.Join(filepath.ToSlash(r.relSpecs()), rel)
		t.Research = append(t.Research, p)
		if t.Status == NotStarted {
			t.Status = Researched
		}
		t.Updated = now
		return nil
	})
	return p, number, err
}

// ErrPlanMoved is why an approval of content the plan no longer has was
// refused.
var ErrPlanMoved = errors.New("the plan says something else now")

// Approve records the user's approval of the task's current plan version,
// pinned to its content as it is now (PlanHash): the approval holds only
// while the plan says the same. The text approved is kept, so that a
// later change is shown against it ([Approval]). It returns the plan
// approved and what changed since the approval before, if any. Only the
// user approves: the command checks who runs it ([MayApprove]). A
// non-empty content approves the plan only while its PlanHash begins with
// it: the user approves the text they read ('plan show' names its
// content), not one the agent wrote in its place since.
func (r *Repo) Approve(ctx context.Context, n int, content string) (a Approval, err error) {
	err = r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		t, err := Get(b, n)
		if err != nil {
			return err
		}
		if len(t.Plans) == 0 {
			return fmt.Errorf("task %d has no plan to approve (atreides plan new %d)", n, n)
		}
		version, _, plan, src, err := r.CurrentPlan(t)
		if err != nil {
			return err
		}
		a = ApprovalOf(t, version, plan, src)
		if !strings.HasPrefix(a.Hash, content) {
			return fmt.Errorf("task %d: %w (content %s, not %s): read it again (atreides plan show %d)", n, ErrPlanMoved, a.Hash[:12], content, n)
		}
		if _, ok := recordedStatus(t, version); !ok {
			t.PhaseVersion, t.PhaseStatus = version, statusesOf(plan)
		}
		t.Approved, t.ApprovedHash, t.ApprovedText, t.Updated = version, PlanHash(src), string(src), now
		return nil
	})
	return a, err
}

// SetPhase gives phase k of the task's current plan the status in the
// store, and rewrites the plan file's markers from the store in one step
// (a marker written by hand is put back as recorded); it records the
// phase: k when it starts, the next unfinished one when it completes. k
// 0 is the current phase.
func (r *Repo) SetPhase(ctx context.Context, n, k int, status string) (ph Phase, next int, err error) {
	err = r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		t, err := Get(b, n)
		if err != nil {
			return err
		}
		if Closed(t.Status) {
			return fmt.Errorf("task %d is %s", n, t.Status)
		}
		_, p, plan, src, err := r.CurrentPlan(t)
		if err != nil {
			return err
		}
		if k == 0 {
			if k = plan.Current(); k == 0 {
				return fmt.Errorf("every phase of task %d's plan is completed", n)
			}
		}
		if k < 1 || k > len(plan.Phases) {
			return fmt.Errorf("task %d: the plan has %s, no phase %d", n, phasesWord(len(plan.Phases)), k)
		}
		if _, ok := markerStatus(Marker(status)); !ok {
			return fmt.Errorf("task %d: a phase is not started, in progress or completed, not %s", n, status)
		}
		recorded := statusesOf(plan)
		recorded[k-1] = status
		out := WithStatuses(src, recorded)
		specs := filepath.ToSlash(r.relSpecs())
		if err := r.writeTaskFile(strings.TrimPrefix(p, specs+"/"), out, false); err != nil {
			return err
		}
		t.PhaseVersion, t.PhaseStatus = len(t.Plans), recorded
		for i := range plan.Phases {
			plan.Phases[i].Status, plan.Phases[i].FileStatus = recorded[i], ""
		}
		ph, next = plan.Phases[k-1], plan.Current()
		t.Phase = k
		if status == Completed {
			t.Phase = next
		}
		t.Updated = now
		return nil
	})
	return ph, next, err
}

// PlanTemplate is the first version of a task's plan, for the agent (or
// the person) who fills it in. verify is the configured default
// verification command, shown as the phase's Verify line when set.
func PlanTemplate(t *taskboard.Task, verify string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Task %d: %s — implementation plan, version 1\n\n", t.Number, t.Title)
	fmt.Fprintf(&b, "<!-- atreides: written by `atreides plan new %d`. Replace the placeholders. Each phase is a\n", t.Number)
	b.WriteString("\"## Phase K: title [NOT STARTED]\" heading; atreides moves the marker at its end. A\n")
	fmt.Fprintf(&b, "\"Verify: <command>\" line in a phase is what `atreides plan phase-done %d` runs, from the\n", t.Number)
	b.WriteString("project root, before it marks the phase completed. -->\n\n")
	fmt.Fprintf(&b, "Approval: the user approves this version with `atreides plan approve %d`.\n", t.Number)
	if len(t.Research) > 0 {
		fmt.Fprintf(&b, "Research: %s\n", strings.Join(t.Research, ", "))
	}
	b.WriteString("\n## Goal\n\n")
	if t.Description != "" {
		b.WriteString(t.Description + "\n")
	} else {
		b.WriteString("What is true when this task is done.\n")
	}
	b.WriteString("\n## Phase 1: First step [NOT STARTED]\n\n")
	b.WriteString("- What changes (files, functions) and why.\n")
	if verify != "" {
		fmt.Fprintf(&b, "- Verify: `%s`\n", verify)
	} else {
		b.WriteString("- How it is checked: a line \"Verify: <command>\" (the tests that prove this phase works).\n")
	}
	b.WriteString("\n## Risks and open questions\n\n- None yet.\n")
	return b.String()
}

// Revise is the next version of a plan: the previous one's text, with a
// note of where it came from, its completed phases still completed (their
// work is in the tree) and every other phase not started: the revision is
// a fresh plan for the remaining work, approved on its own.
func Revise(prev []byte, prevName string, version int) []byte {
	out := slices.Clone(prev)
	p := ParsePlan(out)
	for k := len(p.Phases); k >= 1; k-- {
		if st := p.Phases[k-1].Status; st != Completed && st != NotStarted {
			out, _ = SetMarker(out, k, NotStarted)
		}
	}
	note := fmt.Sprintf("<!-- atreides: version %d, revised from %s; completed phases stay completed, the others start again. -->\n\n", version, prevName)
	return append([]byte(note), out...)
}

// ResearchTemplate is a new research report.
func ResearchTemplate(t *taskboard.Task, number int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Task %d: %s — research report %d\n\n", t.Number, t.Title, number)
	fmt.Fprintf(&b, "<!-- atreides: written by `atreides plan research %d`. Replace the placeholders; the plan\n", t.Number)
	b.WriteString("(`atreides plan new`) links this report. -->\n\n")
	b.WriteString("## Question\n\nWhat this research must answer for the task.\n\n")
	b.WriteString("## Findings\n\n- What the code, the docs and experiments show, with file paths and links.\n\n")
	b.WriteString("## Options\n\n- Each way to do it, with its cost and risk.\n\n")
	b.WriteString("## Recommendation\n\nThe option to take, and why.\n")
	return b.String()
}
