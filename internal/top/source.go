package top

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/view"
)

// Source is the read model top shows: the dashboard's server, which
// shares snapshots and one watcher per project (dashboard.Server).
type Source interface {
	Snapshot(ctx context.Context, root string) (*view.Snapshot, error)
	Watch(ctx context.Context, root string) <-chan struct{}
}

// How much of the trail one screen keeps: more than any terminal shows,
// few enough that a reload stays cheap.
const (
	maxDecisions = 200
	maxItems     = 300
)

// Data is what one screen shows, read from one snapshot of each project.
type Data struct {
	// Root is the project top was started in; Roots are those shown, Root
	// first (more than one with --all).
	Root  string
	Roots []string
	Taken time.Time
	// Sessions are newest activity first, each with its project.
	Sessions []view.ProjectSession
	// Decisions are the trails' newest records, oldest first.
	Decisions []audit.Row
	// Background are the tasks not yet ended, oldest first.
	Background []view.BgTask
	// Focus is the session whose timeline Items, open Todos and Strikes
	// are read ("" none).
	Focus   string
	Items   []view.Item
	Todos   []view.SessionTodo
	Strikes []view.Strike
}

// loader reads Data for projects from their source and trails.
type loader struct {
	src   Source
	roots []string // the first is the project top was started in
	trail func(root string) audit.Reader
}

// load reads each project's snapshot, the trails' newest records and,
// for focus, the session's timeline. A project other than the first that
// cannot be read is left out and its error returned with what was read.
func (l loader) load(ctx context.Context, focus string) (Data, error) {
	d := Data{Root: l.roots[0], Roots: l.roots, Focus: focus}
	var errs []error
	for i, root := range l.roots {
		err := l.project(ctx, root, &d)
		if err != nil && i == 0 {
			return Data{}, err
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", root, err))
		}
	}
	// Newest activity first across projects; one project's order kept.
	slices.SortStableFunc(d.Sessions, func(a, b view.ProjectSession) int { return b.Updated.Compare(a.Updated) })
	slices.SortStableFunc(d.Decisions, func(a, b audit.Row) int { return a.Time.Compare(b.Time) })
	if len(d.Decisions) > maxDecisions {
		d.Decisions = d.Decisions[len(d.Decisions)-maxDecisions:]
	}
	return d, errors.Join(errs...)
}

// project adds one project's sessions, background tasks and decisions to
// d, and the focused session's detail when it is this project's.
func (l loader) project(ctx context.Context, root string, d *Data) error {
	snap, err := l.src.Snapshot(ctx, root)
	if err != nil {
		return fmt.Errorf("read the project's state: %w", err)
	}
	if snap.Taken.After(d.Taken) {
		d.Taken = snap.Taken
	}
	for _, r := range snap.SessionRows() {
		d.Sessions = append(d.Sessions, view.ProjectSession{SessionRow: r, Project: root})
	}
	for _, t := range snap.BackgroundList("").Tasks {
		if t.Status == background.Queued || t.Status == background.Running {
			d.Background = append(d.Background, t)
		}
	}
	tr := l.trail(root)
	rows, err := recentRows(tr, maxDecisions)
	if err != nil {
		return err
	}
	d.Decisions = append(d.Decisions, rows...)
	detail, ok := snap.SessionDetail(d.Focus)
	if !ok {
		return nil
	}
	for _, t := range detail.Todos {
		if t.Open {
			d.Todos = append(d.Todos, t)
		}
	}
	d.Strikes = detail.Strikes
	if d.Items, err = snap.Timeline(tr, d.Focus, view.TimelineFilter{Limit: maxItems}); err != nil {
		return fmt.Errorf("read the session's timeline: %w", err)
	}
	return nil
}

// recentRows are the trail's newest n records in time order, read with
// the text view's scanner (no full decode of each record), kept in a ring
// so a long trail costs n rows of memory.
func recentRows(t audit.Reader, n int) ([]audit.Row, error) {
	ring := make([]audit.Row, 0, n)
	total := 0
	_, err := t.ReadRows(audit.Filter{}, func(r *audit.Row) error {
		if len(ring) < n {
			ring = append(ring, *r)
		} else {
			ring[total%n] = *r
		}
		total++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the audit trail: %w", err)
	}
	if total > n {
		k := total % n
		ring = append(ring[k:], ring[:k]...)
	}
	return ring, nil
}
