package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// A Committer lets the record writes of a long-lived process (serve)
// share their syncs: an [Update] whose context carries one
// ([WithCommitter]) writes its records in place under the lock as usual
// but does not sync them; the Committer syncs every file written since
// its last batch together, in a goroutine of its own, outside the lock.
// A caller that must not go on before its write is durable waits for it
// ([Committer.Wait]); one whose write may be lost in a crash does not.
//
// Two rules keep a record file whole however a crash falls:
//
//   - A slot written without its sync is flagged so (slotLazy). The slot
//     that is not the current one always holds a durable value: a writer
//     that finds the current slot flagged either knows it durable (this
//     Committer synced it), or overwrites it when this Committer wrote it
//     and has not synced it yet (the other slot is the durable one), or,
//     not knowing (another process wrote it), syncs the file first. So at
//     most one slot is ever in flux.
//   - A file is never written while it is being synced: the write waits
//     for the sync (a sync that overlapped a write could report durable a
//     slot still half on disk).
//
// Other processes see the new values at once (they are in the page cache,
// and the lock orders every reader after the write); a kill -9 of the
// server loses nothing written; only a machine crash can take back a
// write not yet synced, and then the record holds its previous durable
// value. A failed sync is sticky: every later Wait fails with it, as the
// kernel may have dropped the pages it could not write and no later sync
// would say so.
type Committer struct {
	// Idle is how long after the last write the writes nobody waits for
	// are synced (default 20 ms), and MaxDelay how long at most they may
	// stay unsynced while writes keep coming (default 500 ms): a burst
	// shares one sync, and a sync rarely runs while the next write of its
	// file waits for it (a file is not written while it is synced).
	Idle, MaxDelay time.Duration
	// SyncFile, if set, makes a file durable instead of fdatasync: for
	// tests that hold a sync or fail it.
	SyncFile func(*os.File) error

	// kept are the record files kept between transactions (kept.go),
	// dirs the state directories (keptdir.go).
	kept keptRecords
	dirs keptDirs

	mu      sync.Mutex
	files   map[string]*lazyFile
	next    uint64        // number of the last write registered
	synced  uint64        // every write numbered up to this is durable
	urgent  uint64        // the highest write a waiter waits for
	err     error         // the first failed sync: sticky
	changed chan struct{} // closed when synced or err changes
	kick    chan struct{} // a write was registered
	hurry   chan struct{} // a waiter waits
	stop    chan struct{}
	stopped chan struct{}
	started bool
	closed  bool
}

// lazyFile is a record file this Committer wrote without its sync.
type lazyFile struct {
	mu     sync.Mutex // held while written or synced
	f      *os.File   // a descriptor of its own, for the sync
	fi     os.FileInfo
	seq    uint64 // the slot sequence number of the last write
	n      uint64 // that write's number
	synced uint64 // the sequence number known durable
}

// NewCommitter returns a Committer; [Committer.Close] syncs what is left
// and stops it.
func NewCommitter() *Committer {
	return &Committer{
		files:   map[string]*lazyFile{},
		changed: make(chan struct{}),
		kick:    make(chan struct{}, 1),
		hurry:   make(chan struct{}, 1),
		stop:    make(chan struct{}),
		stopped: make(chan struct{}),
	}
}

// Written is what an Update run with a Committer wrote without syncing:
// the records written in place and the number of its last such write,
// for [Committer.Wait] (0: none; all it wrote, if anything, is durable
// already: the database, new files, removals).
type Written struct {
	Records []RecordRef
	Ticket  uint64
}

// RecordRef names a record: its set and key.
type RecordRef struct{ Set, Key string }

// committing is what WithCommitter puts in a context.
type committing struct {
	c    *Committer
	note func(Written)
}

type commitKey struct{}

// WithCommitter returns ctx with c, for the [Store.Update] calls made with
// it: their in-place record writes are left to c to sync, and note (when
// not nil) is told what each wrote once its writes are made, with the
// lock still held, before Update returns. Update may call note twice, when
// it runs the function again on a fresh file after moving a damaged one
// aside. Remote stores ignore it.
func WithCommitter(ctx context.Context, c *Committer, note func(Written)) context.Context {
	return context.WithValue(ctx, commitKey{}, &committing{c: c, note: note})
}

func committerOf(ctx context.Context) *committing {
	cm, _ := ctx.Value(commitKey{}).(*committing)
	return cm
}

// write puts slot into the record file f (at path, described by fi; nil:
// f is asked), where at says the current value is, without syncing, and
// registers the write; target is the slot written.
func (c *Committer) write(path string, f *os.File, fi os.FileInfo, slot []byte, at *slotAt) (n uint64, target int, err error) {
	if fi == nil {
		if fi, err = f.Stat(); err != nil {
			return 0, 0, err
		}
	}
	lf := c.file(path)
	lf.mu.Lock()
	defer lf.mu.Unlock()
	ours := lf.f != nil && os.SameFile(lf.fi, fi)
	target = 1 - at.slot
	switch {
	case !at.lazy:
	case ours && lf.synced == at.seq:
	case ours && lf.seq == at.seq:
		target = at.slot // ours and not synced: the other slot is the durable one
	default:
		if err := datasync(f); err != nil {
			return 0, 0, err
		}
	}
	if _, err := f.WriteAt(slot, int64(target*at.size)); err != nil {
		return 0, 0, err
	}
	if !ours {
		if err := lf.open(f, fi); err != nil {
			return 0, 0, err
		}
	}
	lf.seq = at.seq + 1
	return c.register(lf), target, nil
}

// open keeps a descriptor of f of lf's own, for the sync.
func (lf *lazyFile) open(f *os.File, fi os.FileInfo) error {
	if lf.f != nil {
		_ = lf.f.Close()
	}
	own, err := dupFile(f)
	if err != nil {
		return fmt.Errorf("keep %s for its sync: %w", f.Name(), err)
	}
	lf.f, lf.fi, lf.synced = own, fi, 0
	return nil
}

// file is path's entry, made on first use.
func (c *Committer) file(path string) *lazyFile {
	c.mu.Lock()
	defer c.mu.Unlock()
	lf := c.files[path]
	if lf == nil {
		lf = &lazyFile{}
		c.files[path] = lf
	}
	return lf
}

// forget drops path's entry: the file was replaced by a durable one.
func (c *Committer) forget(path string) {
	c.mu.Lock()
	lf := c.files[path]
	delete(c.files, path)
	c.mu.Unlock()
	if lf != nil {
		lf.mu.Lock() // not while it is synced
		if lf.f != nil {
			_ = lf.f.Close()
			lf.f = nil
		}
		lf.mu.Unlock()
	}
}

// register numbers a write to lf and wakes the committer.
func (c *Committer) register(lf *lazyFile) uint64 {
	c.mu.Lock()
	c.next++
	lf.n = c.next
	n := c.next
	if !c.started && !c.closed {
		c.started = true
		go c.loop()
	}
	c.mu.Unlock()
	signal(c.kick)
	return n
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Wait returns once write ticket (and every write before it) is durable,
// or the error of a sync that failed, or ctx's.
func (c *Committer) Wait(ctx context.Context, ticket uint64) error {
	for {
		c.mu.Lock()
		err, done, ch := c.err, c.synced >= ticket, c.changed
		if !done && ticket > c.urgent {
			c.urgent = ticket
		}
		c.mu.Unlock()
		switch {
		case err != nil:
			return err
		case done:
			return nil
		}
		signal(c.hurry)
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("wait for the state to be on disk: %w", ctx.Err())
		}
	}
}

// Settled returns once every write someone waits for is durable: for a
// caller that answers on state without writing any it must wait for, so
// that no answer rests on another's write a crash could still take back.
func (c *Committer) Settled(ctx context.Context) error {
	c.mu.Lock()
	urgent := c.urgent
	c.mu.Unlock()
	return c.Wait(ctx, urgent)
}

// loop syncs batches: at once when someone waits, else once writes
// pause for Idle, or MaxDelay after the first write not synced.
func (c *Committer) loop() {
	defer close(c.stopped)
	idle, most := orDefault(c.Idle, 20*time.Millisecond), orDefault(c.MaxDelay, 500*time.Millisecond)
	for {
		select {
		case <-c.kick:
		case <-c.hurry:
		case <-c.stop:
			c.batch()
			return
		}
		if !c.waited() && !c.pause(idle, most) {
			c.batch()
			return
		}
		c.batch()
	}
}

// pause waits until writes pause for idle, most has passed, or someone
// waits; false when the committer is closing.
func (c *Committer) pause(idle, most time.Duration) bool {
	deadline := time.NewTimer(most)
	defer deadline.Stop()
	t := time.NewTimer(idle)
	defer t.Stop()
	for {
		select {
		case <-c.kick:
			t.Reset(idle)
		case <-t.C:
			return true
		case <-deadline.C:
			return true
		case <-c.hurry:
			return true
		case <-c.stop:
			return false
		}
	}
}

// orDefault is d, or def when d is not positive (unset).
func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// waited reports that a write someone waits for is not durable yet.
func (c *Committer) waited() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.urgent > c.synced
}

// batch syncs every file written since its last sync, the files at once
// (the file system can then share its journal commits between them), and
// moves the durable mark to the last write registered before it began.
func (c *Committer) batch() {
	c.mu.Lock()
	hi := c.next
	var dirty []*lazyFile
	for _, lf := range c.files {
		dirty = append(dirty, lf)
	}
	c.mu.Unlock()
	errs := make([]error, len(dirty))
	var wg sync.WaitGroup
	for i, lf := range dirty {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = lf.sync(c.SyncFile)
		}()
	}
	wg.Wait()
	err := errors.Join(errs...)
	c.mu.Lock()
	if err != nil && c.err == nil {
		c.err = fmt.Errorf("sync state records: %w", err)
	}
	if err == nil && hi > c.synced {
		c.synced = hi
	}
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// sync makes lf's last write durable, if it is not yet, with how (nil:
// fdatasync).
func (lf *lazyFile) sync(how func(*os.File) error) error {
	lf.mu.Lock()
	defer lf.mu.Unlock()
	if lf.f == nil || lf.synced == lf.seq {
		return nil
	}
	if how == nil {
		how = datasync
	}
	if err := how(lf.f); err != nil {
		return err
	}
	lf.synced = lf.seq
	return nil
}

// Close syncs what is left, stops the committer and closes its files;
// the error is the first failed sync, if any.
func (c *Committer) Close() error {
	c.mu.Lock()
	started := c.started
	if !c.closed {
		c.closed = true
		close(c.stop)
	}
	c.mu.Unlock()
	if started {
		<-c.stopped
	} else {
		c.batch()
	}
	c.kept.close()
	c.dirs.close()
	c.mu.Lock()
	defer c.mu.Unlock()
	for p, lf := range c.files {
		if lf.f != nil {
			_ = lf.f.Close()
		}
		delete(c.files, p)
	}
	return c.err
}
