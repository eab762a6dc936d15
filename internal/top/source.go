package top

import (
	"context"
	"fmt"
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

// Data is what one screen shows, read from one snapshot.
type Data struct {
	Root  string
	Taken time.Time
	// Sessions are newest activity first (view.Snapshot.SessionRows).
	Sessions []view.SessionRow
	// Decisions are the trail's newest records, oldest first.
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

// loader reads Data for a project from its source and trail.
type loader struct {
	src   Source
	root  string
	trail func(root string) audit.Reader
}

// load reads the project's snapshot, the trail's newest records and, for
// focus, the session's timeline.
func (l loader) load(ctx context.Context, focus string) (Data, error) {
	snap, err := l.src.Snapshot(ctx, l.root)
	if err != nil {
		return Data{}, fmt.Errorf("read the project's state: %w", err)
	}
	d := Data{Root: l.root, Taken: snap.Taken, Sessions: snap.SessionRows(), Focus: focus}
	for _, t := range snap.BackgroundList("").Tasks {
		if t.Status == background.Queued || t.Status == background.Running {
			d.Background = append(d.Background, t)
		}
	}
	tr := l.trail(l.root)
	if d.Decisions, err = recentRows(tr, maxDecisions); err != nil {
		return d, err
	}
	if detail, ok := snap.SessionDetail(focus); ok {
		for _, t := range detail.Todos {
			if t.Open {
				d.Todos = append(d.Todos, t)
			}
		}
		d.Strikes = detail.Strikes
		if d.Items, err = snap.Timeline(tr, focus, view.TimelineFilter{Limit: maxItems}); err != nil {
			return d, fmt.Errorf("read the session's timeline: %w", err)
		}
	}
	return d, nil
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
