package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// Run is a review's record: who reviews as which background task, where
// its report goes, and by when it must be done.
type Run struct {
	ID    string `json:"id"`
	Focus string `json:"focus"`
	// Task is the task the review belongs to (0: none); Dir is where its
	// report is written, relative to the project root.
	Task     int       `json:"task,omitempty"`
	Dir      string    `json:"dir"`
	Parent   string    `json:"parent"`
	Started  time.Time `json:"started"`
	Deadline time.Time `json:"deadline"`
	Slots    []Slot    `json:"reviewers"`
	// Final is the report once written: kept here, under .atreides, and
	// only copied to Dir, which may be where the agent writes (a specs
	// directory outside .atreides), so the copy is never read back.
	Final *Report `json:"report,omitempty"`
}

// Slot is one reviewer of a run: its background task, or why it never
// got one.
type Slot struct {
	Reviewer
	TaskID string `json:"task_id,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Request is a review to start.
type Request struct {
	Focus string
	// Hosts are the reviewers' hosts (empty: Options.Resolve's default).
	Hosts []string
	// Task and Dir: the task the review is for and its directory (see
	// ReportDir); Dir "" is .atreides/reviews.
	Task int
	Dir  string
	// Parent is the calling session ("cli" for the command line),
	// ParentAgent its agent and Path its chain of background agents, as
	// a background task records them.
	Parent, ParentAgent string
	Path                []string
	// Facts are the hosts' facts by name (the host registry's).
	Facts map[string]*event.HostFacts
}

// Start queues one background task per reviewer, in one registry update,
// and records the run. A reviewer whose task cannot be queued (no
// headless command for its host, an unknown agent) is recorded with the
// reason, to be named in the report; no reviewer at all is an error.
func Start(ctx context.Context, reg *background.Registry, o Options, q Request) (*Run, error) {
	reviewers := o.Resolve(q.Hosts)
	if len(reviewers) == 0 {
		return nil, errors.New("no reviewer: configure review.reviewers, name hosts, or install a host whose headless command (background.commands) is on PATH")
	}
	now := reg.Now().UTC()
	run := &Run{Focus: strings.TrimSpace(q.Focus), Task: q.Task, Dir: q.Dir, Parent: q.Parent, Started: now, Deadline: now.Add(o.Timeout)}
	if run.Dir == "" {
		run.Dir = filepath.Join(".atreides", "reviews")
	}
	id, err := newID(reg.Root)
	if err != nil {
		return nil, err
	}
	run.ID = id
	prompt := Prompt(q.Focus)
	err = reg.Update(ctx, func(p *state.Project, now time.Time) error {
		run.Slots = run.Slots[:0]
		for _, r := range reviewers {
			s := Slot{Reviewer: r}
			t, err := reg.Add(p, background.Request{Parent: q.Parent, ParentAgent: q.ParentAgent, Host: r.Host, Facts: q.Facts[r.Host],
				Agent: o.Agent, Model: r.Model, Plain: true, Description: "review " + id + " by " + r.Label(), Prompt: prompt, Path: q.Path}, now)
			if err != nil {
				s.Error = err.Error()
			} else {
				s.TaskID = t.ID
			}
			run.Slots = append(run.Slots, s)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("queue the reviewers: %w", err)
	}
	return run, save(reg.Root, run)
}

// newID reserves the next review id (review-1, review-2, ...) by
// creating its record exclusively, so two reviews started at once get
// two ids.
func newID(root string) (string, error) {
	for n := records(root) + 1; ; n++ {
		id := "review-" + strconv.Itoa(n)
		ok, err := reserve(root, id)
		if err != nil {
			return "", fmt.Errorf("reserve a review id: %w", err)
		}
		if ok {
			return id, nil
		}
	}
}

func save(root string, run *Run) error {
	b, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(root, filepath.Join(runsRel(), run.ID+".json"), b)
}

// Load reads a review's record.
func Load(root, id string) (*Run, error) {
	if !validID(id) {
		return nil, fmt.Errorf("%q is not a review id (review-N)", id)
	}
	b, err := readFile(root, filepath.Join(runsRel(), id+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no review %s", id)
	}
	if err != nil {
		return nil, err
	}
	var run Run
	if err := json.Unmarshal(b, &run); err != nil {
		return nil, fmt.Errorf("review %s: broken record: %w", id, err)
	}
	return &run, nil
}

// validID keeps an id a caller passes from naming a path.
func validID(id string) bool {
	n, ok := strings.CutPrefix(id, "review-")
	_, err := strconv.Atoi(n)
	return ok && err == nil && !strings.ContainsAny(n, "+-")
}

// ReportDir is where a review of task n goes: reviews/ in the task's
// directory (tasks.dir/<n>_<slug>/reviews), next to its plans and
// reports. An unknown task is an error naming it.
func ReportDir(ctx context.Context, root string, n int) (string, error) {
	repo := tasks.Open(root, tasks.LoadOptions(root))
	var dir string
	err := repo.View(ctx, func(b *taskboard.Tasks) error {
		t, err := tasks.Get(b, n)
		if err != nil {
			return err
		}
		dir = filepath.Join(repo.TaskDir(t), "reviews")
		return nil
	})
	return dir, err
}
