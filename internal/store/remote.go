package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// A remote back end keeps a project's values in a database server shared
// by every machine of a team (package pgstore: PostgreSQL). It lives in a
// package of its own, registered by name, so that the hook binary does
// not link a database driver it has no use for on a machine that keeps its
// state in the embedded file: only the companion program atreides-team
// imports one (see package fleet). Adding a back end is one [Register] call
// and one entry in the conformance suite's list of back ends.

// Remote is one remote store of one project.
type Remote interface {
	// Update begins a read-write transaction that no other Update of the
	// project runs beside (waiting at most lockTimeout for the others),
	// calls run with its operations and commits when run returns nil.
	Update(ctx context.Context, lockTimeout time.Duration, run func(RemoteTx) error) error
	// View begins a read-only transaction that sees one consistent picture
	// and calls run with its operations.
	View(ctx context.Context, run func(RemoteTx) error) error
	// Where names the store for messages, without secrets.
	Where() string
}

// RemoteTx is the primitive operations of one transaction. A bucket and a
// record set are two name spaces (space is "b:" or "r:" and the name); keys
// sort as bytes. An operation that fails ends the transaction by calling
// [Abort] with the error.
type RemoteTx interface {
	Get(space, key string) []byte // nil: none; an empty value is not nil
	Put(space, key string, val []byte)
	Delete(space, key string)
	Each(space string, fn func(key string, val []byte) error) error
	// Append stores val under the bucket's next sequence number, never
	// given before, and returns it; its key is [SeqKey] of it.
	Append(bucket string, val []byte) uint64
	Last(space string) (seq uint64, val []byte)
}

// Kind is a registered remote back end.
type Kind struct {
	// Open is the store of project in the database dsn names. It does no
	// I/O.
	Open func(dsn, project string) Remote
	// Migrate brings the database to the schema this build needs.
	Migrate func(ctx context.Context, dsn, version string) (Migrated, error)
	// Probe measures the database: its schema and round trip.
	Probe func(ctx context.Context, dsn string, n int) (Health, error)
	// SchemaVersion is the schema this build needs.
	SchemaVersion int
}

// Migrated is what a Migrate did: the schema it found and the one it left.
type Migrated struct{ From, To int }

// Health is what a Probe found.
type Health struct {
	Schema  int           // the schema version; 0: not migrated
	Latency time.Duration // the median round trip
}

var (
	kindsMu sync.Mutex
	kinds   map[string]Kind // made by the first Register: no init work
)

// Register makes a remote back end known by name; its package calls it
// from init.
func Register(name string, k Kind) {
	kindsMu.Lock()
	defer kindsMu.Unlock()
	if kinds == nil {
		kinds = map[string]Kind{}
	}
	kinds[name] = k
}

// Lookup is the remote back end registered as name.
func Lookup(name string) (Kind, bool) {
	kindsMu.Lock()
	defer kindsMu.Unlock()
	k, ok := kinds[name]
	return k, ok
}

// ErrNotLinked is the error (wrapped) of a back end this program was
// built without: no [Lookup] finds it.
var ErrNotLinked = errors.New("this program was built without that store back end")

// OpenRemote is the store kept in the remote back end r (a [Kind]'s
// Open), dir being the project's .atreides directory (for what stays
// local).
func OpenRemote(dir string, r Remote) *Store {
	s := Open(dir)
	s.remote = r
	return s
}

// Remote is the store's remote back end; nil for the embedded store.
func (s *Store) Remote() Remote { return s.remote }

// Abort ends the function of the transaction it is called in, with err as
// the transaction's error: for a [RemoteTx] operation that failed.
func Abort(err error) { panic(backendFailure{err}) }

// CallUser runs a caller's ForEach callback from inside a [RemoteTx]'s
// Each, so that a panic in it is the caller's, not the back end's.
func CallUser(fn func(key string, val []byte) error, k string, v []byte) error {
	return callUser(fn, k, v)
}

// remoteUpdate is [Store.Update] on a remote back end.
func (s *Store) remoteUpdate(ctx context.Context, fn func(tx *Tx) error) error {
	var notes []string
	err := s.remote.Update(ctx, s.lockTimeout(), func(ops RemoteTx) error {
		tx := &Tx{writable: true, store: s, remote: ops}
		err := guardTx(func() error { return runFn(tx, fn) })
		notes = tx.notes
		return err
	})
	if err == nil {
		for _, n := range notes {
			s.report(n)
		}
	}
	return err
}

// remoteView is [Store.View] on a remote back end.
func (s *Store) remoteView(ctx context.Context, fn func(tx *Tx) error) error {
	return s.remote.View(ctx, func(ops RemoteTx) error {
		return guardTx(func() error { return runView(&Tx{store: s, remote: ops}, fn) })
	})
}

// Origin is where a write to a store shared by a team's machines was made:
// the host name of the machine and the absolute path of the project's
// checkout on it. Two clones on one machine differ by path, two machines
// by name; both read better to people (and agents) than an id would. The
// audit trail names each decision's, and the project record each todo's
// and anchor's (package state), so that what another checkout wrote is
// told apart from what this one did. It is what the writer says: a
// machine that writes the database with SQL of its own can claim any.
type Origin struct{ Machine, Checkout string }

// Here is the origin of writes made in the checkout at root.
func Here(root string) Origin {
	name, _ := os.Hostname()
	return Origin{Machine: name, Checkout: root}
}

// Origin is where the transaction's writes are made ([Store.Origin]).
func (tx *Tx) Origin() Origin { return tx.store.Origin }

// UnreachableError is a remote store that could not be reached: the
// connection failed or broke. Callers that can work without the store
// (all but governance) carry on and say so.
type UnreachableError struct {
	Where string // the store, without secrets
	Err   error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("state database %s unreachable: %v", e.Where, e.Err)
}
func (e *UnreachableError) Unwrap() error { return e.Err }

// Name spaces of a remote store's one table.
func bucketSpace(bucket string) string { return "b:" + bucket }
func recordSpace(set string) string    { return "r:" + set }

// RangeDeleter is a [RemoteTx] that removes every key of a space below
// one in one operation (see [Tx.DeleteBefore]); a back end without it has
// the keys listed and removed one by one.
type RangeDeleter interface {
	DeleteBelow(space, key string)
}
