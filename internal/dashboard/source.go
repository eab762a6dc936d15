package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/view"
)

const (
	// pollEvery is how often the store's files are statted and the audit
	// trail looked at: a change reaches the page well within a second.
	pollEvery = 250 * time.Millisecond
	// minTake is the least time between two snapshots of one project:
	// four a second at most, whatever the number of pages.
	minTake = 250 * time.Millisecond
)

// source is one project as the server follows it: its shared snapshot,
// the generation of its store (moved by every change seen), and the
// event streams listening to it.
type source struct {
	root string
	srv  *Server
	gen  atomic.Uint64
	// ready is closed once the audit follower knows where the trail
	// ends: a stream that said hello gets every record appended after it.
	ready chan struct{}

	mu    sync.Mutex // held across a Take, so concurrent readers share it
	snap  *view.Snapshot
	taken uint64 // the gen snap was taken at
	last  time.Time

	subMu sync.Mutex
	subs  map[*subscriber]struct{}
}

// message is one server-sent event.
type message struct {
	Event string
	Data  any
}

// subscriber is one event stream; lost is set when its buffer was full
// and an event was dropped, so the stream tells the page to read again.
type subscriber struct {
	ch   chan message
	lost atomic.Bool
}

// source returns the project's source, starting to follow it on first use.
func (s *Server) source(root string) *source {
	src := s.startSource(root)
	// The follower finds the end of the trail before the source is handed
	// out, waited for without the server's lock: a store that is slow to
	// open holds up its own project's requests, not every project's.
	<-src.ready
	return src
}

// startSource returns the project's source, starting it if it is new.
func (s *Server) startSource(root string) *source {
	s.mu.Lock()
	defer s.mu.Unlock()
	if src := s.sources[root]; src != nil {
		return src
	}
	src := &source{root: root, srv: s, ready: make(chan struct{}), subs: map[*subscriber]struct{}{}}
	src.gen.Store(1)
	s.sources[root] = src
	s.wg.Add(2)
	go func() { defer s.wg.Done(); src.watchStore(s.ctx) }()
	go func() { defer s.wg.Done(); src.followAudit(s.ctx, sync.OnceFunc(func() { close(src.ready) })) }()
	return src
}

// snapshot is the project's snapshot as of its last change, taken now if
// the store changed since; its Taken is now, so activity and leases are
// judged against the clock, not the read.
func (src *source) snapshot(ctx context.Context) (*view.Snapshot, error) {
	src.mu.Lock()
	defer src.mu.Unlock()
	if src.snap == nil || src.taken != src.gen.Load() {
		if wait := minTake - src.srv.now().Sub(src.last); wait > 0 && src.snap != nil {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		gen := src.gen.Load()
		snap, err := src.srv.take(ctx, src.root, src.srv.cfg.Options(src.root))
		if err != nil {
			return nil, err
		}
		src.snap, src.taken, src.last = snap, gen, src.srv.now()
	}
	cp := *src.snap
	cp.Taken = src.srv.now()
	return &cp, nil
}

// changed marks the store changed (an action of the page's, or a change
// the watcher saw) and tells the streams.
func (src *source) changed() {
	src.gen.Add(1)
	src.publish(message{Event: "state", Data: map[string]string{"project": src.root}})
}

func (src *source) add(sub *subscriber) {
	src.subMu.Lock()
	src.subs[sub] = struct{}{}
	src.subMu.Unlock()
}

func (src *source) unsubscribe(sub *subscriber) {
	src.subMu.Lock()
	delete(src.subs, sub)
	src.subMu.Unlock()
}

// publish never blocks: a stream too slow to take an event is told to
// read everything again instead.
func (src *source) publish(m message) {
	src.subMu.Lock()
	defer src.subMu.Unlock()
	for sub := range src.subs {
		select {
		case sub.ch <- m:
		default:
			sub.lost.Store(true)
		}
	}
}

// watchStore stats the store's files every pollEvery and reports a
// change of any size or modification time (see the package comment).
func (src *source) watchStore(ctx context.Context) {
	prev := storePrint(src.root)
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if cur := storePrint(src.root); cur != prev {
			prev = cur
			src.changed()
		}
	}
}

// storePrint is a fingerprint of the names, sizes and modification times
// of what a snapshot reads: state.db, the record files (.atreides/<set>/
// *.rec, rewritten in place), the intents file and the ledger.
func storePrint(root string) uint64 {
	h := fnv.New64a()
	stat := func(path string, fi os.FileInfo) {
		if fi != nil {
			fmt.Fprintf(h, "%s|%d|%d\n", path, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	dir := project.StateDir(root)
	for _, p := range []string{filepath.Join(dir, "state.db"), governance.IntentsPath(root), governance.TracePath(root)} {
		fi, _ := os.Stat(p)
		stat(p, fi)
	}
	sets, _ := os.ReadDir(dir)
	for _, set := range sets {
		if !set.IsDir() {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(dir, set.Name()))
		for _, f := range files {
			if strings.HasSuffix(f.Name(), ".rec") {
				fi, _ := f.Info()
				stat(set.Name()+"/"+f.Name(), fi)
			}
		}
	}
	return h.Sum64()
}

// followAudit passes each record appended to the trail to the streams,
// from the end of the trail as it is now; a failed follow is logged and
// retried. ready is called once the first follow knows where it starts
// (or failed).
func (src *source) followAudit(ctx context.Context, ready func()) {
	defer ready()
	t := trail(src.root)
	for ctx.Err() == nil {
		err := t.Follow(ctx, audit.Filter{}, pollEvery, ready, func(line []byte) error {
			if row, ok := audit.RowOf(line); ok {
				src.publish(message{Event: "audit", Data: view.AuditEvent{Project: src.root, Session: row.Session, Host: row.Host, Time: row.Time, Verdict: row.Verdict, Rule: row.Rule, Block: row.Block}})
			}
			return nil
		})
		if err != nil {
			src.srv.cfg.Logf("ui: follow the audit trail of %s: %v", src.root, err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

// encode is a message in the event-stream format.
func (m message) encode() []byte {
	data, _ := json.Marshal(m.Data)
	return []byte("event: " + m.Event + "\ndata: " + string(data) + "\n\n")
}
