package dashboard

import (
	"context"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/view"
)

// The dashboard's read model for a reader in this process rather than a
// page: atreides top (package top) shows the same snapshots and learns of
// changes from the same two followers (the store's stat poll and the
// audit trail's follow) as the event streams do, so there is one watcher
// of a project, whatever shows it.

// Watch follows root as an event stream does and returns a channel that
// receives a value after each change of the project's store or audit
// trail, until ctx ends or the server closes. Changes coalesce: a reader
// still busy with the last one gets one value for all that came since.
func (s *Server) Watch(ctx context.Context, root string) <-chan struct{} {
	src := s.source(root)
	sub := &subscriber{ch: make(chan message, 64)}
	src.add(sub)
	out := make(chan struct{}, 1)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer src.unsubscribe(sub)
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.ctx.Done():
				return
			case <-sub.ch:
			}
			sub.lost.Store(false)
			select {
			case out <- struct{}{}:
			default:
			}
		}
	}()
	return out
}

// Snapshot is root's shared snapshot, taken as the pages' are: again only
// after a change, at most once per minTake.
func (s *Server) Snapshot(ctx context.Context, root string) (*view.Snapshot, error) {
	return s.source(root).snapshot(ctx)
}

// Trail is root's audit trail, the one the pages' decisions are read
// from (a team's project's shared trail).
func Trail(root string) audit.Reader { return trail(root) }

// KnownRoots are the projects --all shows: root first, then every
// project atreides knows (package project's registry).
func KnownRoots(root string) ([]string, error) { return knownRoots(root) }
