package audit

import (
	"bytes"
	"context"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// Bucket is the team store's append-only bucket of the shared trail: one
// entry per record, the line [Line] builds, under its sequence number.
const Bucket = "audit"

// Retention of the shared trail: audit.max_mib counted in records of
// recordBytes (a record of a tool call is 300 to 700 bytes), pruned by
// the append whose number is a multiple of PruneEvery, so the bucket holds
// between the limit's records and PruneEvery-1 more.
const (
	recordBytes = 512
	PruneEvery  = 128
)

// Keep is how many records the shared trail keeps for a size limit in
// bytes; 0: no limit.
func Keep(maxBytes int64) uint64 { return uint64(max(maxBytes, 0)) / recordBytes }

// Bound keeps the shared trail bounded: given to the engine's loader
// (engine.StoreLoader.AfterAppend), it runs in the event's transaction
// after each append and, once every PruneEvery appends to [Bucket],
// removes the records beyond the limit maxBytes returns (asked for only
// then), oldest first, in one statement.
func Bound(maxBytes func() int64) func(tx *store.Tx, bucket string, seq uint64) error {
	return func(tx *store.Tx, bucket string, seq uint64) error {
		if bucket != Bucket || seq%PruneEvery != 0 {
			return nil
		}
		keep := Keep(maxBytes())
		if keep == 0 || seq <= keep {
			return nil
		}
		return tx.DeleteBefore(Bucket, seq-keep+1)
	}
}

// Shared is the audit trail a team's machines share in the team store's
// bucket, oldest first by sequence number: the order in which the events'
// transactions committed, one at a time per project.
type Shared struct{ st *store.Store }

// NewShared is the shared trail of a team store.
func NewShared(st *store.Store) *Shared { return &Shared{st: st} }

// Of is the trail a project's store keeps: the shared one in a team
// store, else the project's own file.
func Of(st *store.Store) Reader {
	if st.Remote() != nil {
		return NewShared(st)
	}
	return New(st.Dir(), nil)
}

// Where names the team store, without secrets.
func (s *Shared) Where() string { return "the audit trail in " + s.st.Remote().Where() }

// Read implements [Reader].
func (s *Shared) Read(f Filter, fn func(line []byte) error) (Result, error) {
	return s.each(f, true, func(line []byte, _ *fields) error { return fn(line) })
}

// ReadRows implements [Reader].
func (s *Shared) ReadRows(f Filter, fn func(*Row) error) (Result, error) { return readRows(s, f, fn) }

// Stats implements [Reader].
func (s *Shared) Stats(f Filter, loc *time.Location) (*Stats, error) { return stats(s, f, loc) }

// each reads the whole bucket in one read-only transaction: one query,
// whatever the filter (keys are numbers, not times).
func (s *Shared) each(f Filter, valid bool, fn func([]byte, *fields) error) (Result, error) {
	f.prepare()
	var res Result
	err := s.st.View(context.Background(), func(tx *store.Tx) error {
		_, err := passFrom(tx, 0, 0, &f, valid, &res, fn)
		return err
	})
	return res, err
}

// getEach is how many new records a follower fetches one by one; beyond
// it, one query of the whole bucket is cheaper than that many.
const getEach = 64

// passFrom passes the records numbered after after, up to newest (0:
// all), matching f, to fn, and returns the highest number it saw.
func passFrom(tx *store.Tx, after, newest uint64, f *Filter, valid bool, res *Result, fn func([]byte, *fields) error) (uint64, error) {
	var v fields
	last := after
	if newest > after && newest-after <= getEach {
		for seq := after + 1; seq <= newest; seq++ {
			// Nil when pruned meanwhile.
			if line := tx.Get(Bucket, store.SeqKey(seq)); line != nil {
				if err := passLine(bytes.TrimSuffix(line, []byte{'\n'}), &v, f, valid, res, fn); err != nil {
					return last, err
				}
			}
			last = seq
		}
		return last, nil
	}
	err := tx.ForEach(Bucket, func(k string, line []byte) error {
		seq, ok := store.KeySeq(k)
		if !ok || seq <= after {
			return nil
		}
		last = max(last, seq)
		return passLine(bytes.TrimSuffix(line, []byte{'\n'}), &v, f, valid, res, fn)
	})
	return last, err
}

// Follow implements [Reader]: it polls the bucket's newest number and
// reads the records after the last one it passed on, in one read-only
// transaction per poll.
func (s *Shared) Follow(ctx context.Context, f Filter, poll time.Duration, ready func(), fn func(line []byte) error) error {
	f.prepare()
	var (
		res  Result
		last uint64
		pass = func(line []byte, _ *fields) error { return fn(line) }
	)
	err := s.st.View(ctx, func(tx *store.Tx) (err error) {
		if f.Since.IsZero() {
			last, _ = tx.Last(Bucket)
			return nil
		}
		last, err = passFrom(tx, 0, 0, &f, true, &res, pass)
		return err
	})
	if ready != nil {
		ready()
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		err = s.st.View(ctx, func(tx *store.Tx) (err error) {
			newest, _ := tx.Last(Bucket)
			if newest <= last {
				return nil
			}
			last, err = passFrom(tx, last, newest, &f, true, &res, pass)
			return err
		})
	}
}
