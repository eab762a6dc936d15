package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	bolt "go.etcd.io/bbolt"
)

// File names inside the store directory.
const (
	DBFile   = "state.db"
	LockFile = "state.db.lock"
)

// DefaultLockTimeout bounds the wait for the state lock when neither the
// context nor [Store.LockTimeout] sets a shorter one. A hook that cannot get
// the lock in this time has a bigger problem than one lost update, and hosts
// kill hooks that hang.
const DefaultLockTimeout = 10 * time.Second

// ErrLockTimeout is returned (wrapped) when the state lock could not be taken
// before the deadline.
var ErrLockTimeout = errors.New("timed out waiting for the state lock")

// ErrCorrupt is returned (wrapped) when the state file is unreadable and the
// store could not move it aside and start fresh. A file that was moved aside
// successfully is not an error; it is reported through [Store.OnRecover].
var ErrCorrupt = errors.New("state file is corrupt")

// ErrReadOnly is returned (wrapped) by the write methods of a [Tx] inside
// [Store.View].
var ErrReadOnly = errors.New("state transaction is read-only")

// ErrReservedBucket is returned (wrapped) when a caller writes to the bucket
// the store keeps its own metadata in.
var ErrReservedBucket = errors.New(`bucket "` + metaBucket + `" is reserved for the store`)

// ErrTxDone is returned (wrapped) when a [Tx] is used after its function returned.
var ErrTxDone = errors.New("state transaction already finished")

// Store is the state of one project, kept in dir (the .atreides directory).
//
// A Store holds no open files between calls, so it is cheap to create and
// safe to use from several goroutines at once: each call opens its own lock
// file descriptor, and flock excludes descriptors of one process from each
// other just as it excludes processes. Set the exported fields before the
// first call and do not change them afterwards. OnRecover may be called from
// any goroutine that calls Update or View.
type Store struct {
	// OnRecover, if set, is told when the store found an unreadable state
	// file, moved it aside and started fresh (the message names both
	// files), and of every [Tx.Report] of a committed transaction.
	// Callers should log it where a user will see it: it means state was lost.
	// It is called with the state lock held, so it should be quick; a panic
	// in it is swallowed.
	OnRecover func(msg string)

	// LockTimeout bounds the wait for the lock; zero means DefaultLockTimeout.
	// A context deadline that comes earlier wins.
	LockTimeout time.Duration

	// Version is recorded as the creator of a new state file. Empty means the
	// main module's version from the build info.
	Version string

	// Origin is where this store's writes are made, for a store several
	// machines share ([Here]; package fleet sets it); the zero Origin for
	// the embedded store, which only this checkout writes.
	Origin Origin

	dir    string
	base   string // dir's parent, trusted: the project root
	name   string // dir's last element, never followed, nor anything in it
	schema *schema
	remote Remote // a remote back end (OpenRemote, Unavailable); nil: the embedded one
}

// Open returns the store kept in dir, the project's .atreides directory. It
// does no I/O; the directory is created by the first Update.
//
// The directory and its files come from the repository, so none of them is
// opened through a link, and each must be what it claims (package
// confined): a state.db or lock committed as a link to a file of the user's
// makes Update and View fail with a *confined.RefusedError instead of
// writing through it. The directory's parent is the user's choice and is
// followed.
func Open(dir string) *Store {
	base, name := confined.Split(dir, 1)
	return &Store{dir: dir, base: base, name: name, schema: &currentSchema}
}

// Dir is the directory the store keeps its files in.
func (s *Store) Dir() string { return s.dir }

// Path is the path of the state database; of a PostgreSQL store, the
// database (its DSN without the password) and the project.
func (s *Store) Path() string {
	if s.remote != nil {
		return s.remote.Where()
	}
	return filepath.Join(s.dir, DBFile)
}

// Update runs fn in one read-write transaction: either everything fn wrote
// is on disk (fsync'd) when Update returns nil, or nothing is; with a
// [Committer] in ctx ([WithCommitter]), records written in place are
// written but their sync is the Committer's. An fn that
// writes nothing (no Put, Delete or Append) commits nothing: no page is
// written and nothing is synced, and a record put back with the bytes it
// held is not written. It creates the
// directory and the database on first use, migrates an older schema, and
// refuses a newer one with a [*SchemaError]. An error returned by fn is
// returned unchanged and rolls the transaction back; a panic in fn is
// recovered, rolls back, and is returned as an error.
//
// If the file turns out to be damaged while fn runs, the file is moved aside
// and fn runs again on an empty store, so fn should have no effects outside
// the Tx. fn must not call Update or View on the same Store: the lock is not
// re-entrant and the inner call would wait for the outer one until timeout.
func (s *Store) Update(ctx context.Context, fn func(tx *Tx) error) (err error) {
	if s.remote != nil {
		return s.remoteUpdate(ctx, fn)
	}
	// Reading a truncated file through bbolt's mmap raises SIGBUS; let the
	// runtime turn that into a panic we can recover as corruption instead of
	// killing the process (and every later hook with it).
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))

	lk, err := s.lock(ctx, true, true)
	if err != nil {
		return err
	}
	defer lk.unlock()

	err = s.updateLocked(ctx, lk, fn)
	var c *corruption
	if !errors.As(err, &c) {
		return err
	}
	if err := s.moveAside(lk.dir, c); err != nil {
		return err
	}
	// One more try on a fresh file. If even that is "corrupt", something
	// other than the file is wrong; stop instead of looping.
	err = s.updateLocked(ctx, lk, fn)
	if errors.As(err, &c) {
		return fmt.Errorf("update state %s after starting fresh: %w: %v", s.Path(), ErrCorrupt, c.cause)
	}
	return err
}

// View runs fn in one read-only transaction under a shared lock, so views
// run in parallel with each other but never see a half-done Update.
//
// View never creates anything: if the database does not exist yet, fn sees
// an empty store (every Get returns nil). If the file has an older schema,
// View first migrates it with an empty Update and then reads it. If the file
// is unreadable, View moves it aside and reports it exactly like Update does
// (under the exclusive lock, and only if it is still the same file) and then
// shows fn an empty store without creating a new file; callers do not need a
// second code path for a damaged file. In both of these cases fn may run twice (the
// first run saw the damage); keep it free of effects outside the Tx.
func (s *Store) View(ctx context.Context, fn func(tx *Tx) error) error {
	if s.remote != nil {
		return s.remoteView(ctx, fn)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))

	err := s.viewOnce(ctx, fn, false)
	var c *corruption
	var se *SchemaError
	switch {
	case errors.As(err, &c):
		if err := s.recoverForView(ctx, c); err != nil {
			return err
		}
	case errors.As(err, &se) && se.older():
		// An Update opens the database only when asked for a bucket.
		if err := s.Update(ctx, func(tx *Tx) error { tx.bucket(metaBucket); return nil }); err != nil {
			return fmt.Errorf("migrate state before reading: %w", err)
		}
	default:
		return err
	}
	// Second and last try: the repair ran, so anything still wrong is not
	// something another round would fix.
	err = s.viewOnce(ctx, fn, false)
	if errors.As(err, &c) {
		return fmt.Errorf("view state %s after repair: %w: %v", s.Path(), ErrCorrupt, c.cause)
	}
	return err
}

// ViewNoRepair runs fn in one read-only transaction like View, on the
// file as it is: it never moves a damaged file aside, never migrates an
// older schema and never creates anything, not even the lock file. A
// damaged or empty file is an error wrapping [ErrCorrupt]; a file of
// another schema is a [*SchemaError]. It is for commands that check what
// is on disk (trace verify), which must not change what they check.
func (s *Store) ViewNoRepair(ctx context.Context, fn func(tx *Tx) error) error {
	if s.remote != nil {
		return s.remoteView(ctx, fn)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))

	err := s.viewOnce(ctx, fn, true)
	var c *corruption
	if errors.As(err, &c) {
		return fmt.Errorf("read state %s: %w: %v", s.Path(), ErrCorrupt, c.cause)
	}
	return err
}

// viewOnce is one read. asIs is ViewNoRepair's: an empty file is damage
// (View shows it as an empty store and leaves the report to Update), and
// the lock file is not created; without it the read relies on bbolt's own
// lock on the file, which a writer holds for as long as it has it open.
func (s *Store) viewOnce(ctx context.Context, fn func(tx *Tx) error, asIs bool) error {
	// A missing database is an empty view; look before taking the lock so a
	// read never creates the lock file (or anything else) in the project.
	// (Update reports an empty file when it starts it afresh.)
	if fi, ok := s.dbStat(); !ok {
		return s.emptyView(fi, asIs, fn)
	}
	lk, err := s.lock(ctx, false, !asIs)
	if asIs && errors.Is(err, fs.ErrNotExist) {
		var d *confined.Dir
		if d, err = confined.OpenDir(s.base, s.name); err == nil {
			lk = fileLock{dir: d}
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return runView(&Tx{store: s}, fn)
	}
	if err != nil {
		return err
	}
	defer lk.unlock()

	// Again under the lock: the file may have been moved aside meanwhile. A
	// zero-length file is one whose creator died before bbolt wrote its
	// first pages; bbolt would try to initialise it, which a read-only open
	// cannot do.
	fi, ok := s.dbStat()
	if !ok {
		return s.emptyView(fi, asIs, fn)
	}
	db, _, err := openDB(lk.dir, s.Path(), true, s.boltTimeout(ctx))
	if err == nil {
		err = guardTx(func() error {
			return db.View(func(btx *bolt.Tx) error {
				if _, err := s.schema.check(btx, s.Path()); err != nil {
					return err
				}
				return runView(&Tx{btx: btx, store: s, dir: lk.dir}, fn)
			})
		})
		closeDB(db)
	}
	var c *corruption
	if errors.As(err, &c) {
		c.file = fi
	}
	return err
}

// emptyView shows fn an empty database when there is no database file
// (the records, outside it, are read as they are). fi is the file when
// there is one of zero bytes: damage to ViewNoRepair (asIs).
func (s *Store) emptyView(fi fs.FileInfo, asIs bool, fn func(tx *Tx) error) error {
	if asIs && fi != nil {
		return &corruption{cause: errors.New("the file is empty")}
	}
	return runView(&Tx{store: s}, fn)
}

// recoverForView moves an unreadable file aside on behalf of View. That
// needs the exclusive lock, and between dropping the shared lock and getting
// the exclusive one another process may already have moved the file aside
// and written a fresh one; so only the very file View found damaged (same
// inode, size and modification time) is moved.
func (s *Store) recoverForView(ctx context.Context, c *corruption) error {
	lk, err := s.lock(ctx, true, true)
	if err != nil {
		return err
	}
	defer lk.unlock()
	fi, ok := s.dbStat()
	if !ok || c.file == nil || !os.SameFile(fi, c.file) || fi.Size() != c.file.Size() || !fi.ModTime().Equal(c.file.ModTime()) {
		return nil
	}
	return s.moveAside(lk.dir, c)
}

// updateLocked is one attempt at an Update with the exclusive lock held.
// The database is opened when fn first touches a bucket: an Update that
// only reads and writes records (a hook's, most of the time) never opens
// it, which saves its open, map and transaction.
func (s *Store) updateLocked(ctx context.Context, lk fileLock, fn func(tx *Tx) error) error {
	dir := lk.dir
	tx := &Tx{writable: true, store: s, dir: dir, kd: lk.kept}
	cm := committerOf(ctx)
	if cm != nil && keepsFiles {
		tx.kept = &cm.c.kept
		defer tx.putBack()
	}
	var db *bolt.DB
	var created, migrated, wasEmpty bool
	tx.begin = func() *bolt.Tx {
		var err error
		if db, wasEmpty, err = openDB(dir, s.Path(), false, s.boltTimeout(ctx)); err != nil {
			panic(backendFailure{err})
		}
		var btx *bolt.Tx
		err = guardTx(func() error {
			var err error
			if btx, err = db.Begin(true); err != nil {
				return fmt.Errorf("begin state transaction %s: %w", s.Path(), err)
			}
			created, migrated, err = s.schema.prepare(btx, s.Path(), s.version())
			return err
		})
		if err != nil {
			if btx != nil {
				_ = guardTx(btx.Rollback)
			}
			panic(backendFailure{err})
		}
		return btx
	}
	err := guardTx(func() error { return runFn(tx, fn) })
	if tx.btx != nil {
		err = s.finish(tx, err, created || migrated || tx.wrote)
	}
	if db != nil {
		if cerr := closeDB(db); err == nil && cerr != nil {
			// The commit is already durable; a failing close (munmap, close of
			// the descriptor) does not undo it, but the caller should hear of it.
			err = fmt.Errorf("close state %s: %w", s.Path(), cerr)
		}
	}
	var w Written
	if err == nil && len(tx.pending) > 0 {
		w, err = tx.writeRecords(cm)
	}
	tx.closeSets()
	if err == nil && cm != nil && cm.note != nil {
		cm.note(w)
	}
	if err == nil && created {
		// Best effort: the state is safe without it, and a project whose
		// .gitignore cannot be written will show state.db in git status,
		// which tells the user more than a failed hook would.
		_ = ensureGitignore(dir)
	}
	if err == nil {
		for _, n := range tx.notes {
			s.report(n)
		}
	}
	if err == nil && wasEmpty {
		// Under the exclusive lock nobody is still creating it, so the
		// state it stood for is lost, as with a damaged file.
		s.report(fmt.Sprintf("state file %s was empty (a process stopped before writing it, or something truncated it); started with empty state", s.Path()))
	}
	return err
}

// finish commits the database transaction of an Update whose function
// returned err, or rolls it back when err is set or there is nothing to
// commit (which costs no write and no fsync).
func (s *Store) finish(tx *Tx, err error, commit bool) error {
	if err != nil || !commit {
		_ = guardTx(tx.btx.Rollback)
		return err
	}
	if err := guardTx(tx.btx.Commit); err != nil {
		var c *corruption
		if errors.As(err, &c) {
			return err
		}
		// A full disk, an I/O error: bbolt wrote the new pages elsewhere
		// and not the meta page, so the previous state is intact.
		return fmt.Errorf("commit state %s: %w", s.Path(), err)
	}
	return nil
}

// dbStat reports whether there is a database file to open: one with at
// least one byte, or anything that is not a regular file (a link, a FIFO),
// which the open then refuses instead of showing an empty store.
func (s *Store) dbStat() (fs.FileInfo, bool) {
	fi, err := os.Lstat(s.Path())
	return fi, err == nil && (fi.Size() > 0 || !fi.Mode().IsRegular())
}

func (s *Store) version() string {
	if s.Version != "" {
		return s.Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "unknown"
}

func (s *Store) lockTimeout() time.Duration {
	if s.LockTimeout > 0 {
		return s.LockTimeout
	}
	return DefaultLockTimeout
}

// boltTimeout is the backstop for bbolt's own file lock. Everything in
// atreides takes our lock first, so bbolt's lock is free unless some other
// tool (the bbolt CLI, a debugger) holds the file; then we give up instead of
// hanging. Zero would mean "wait forever" to bbolt, so never pass zero.
func (s *Store) boltTimeout(ctx context.Context) time.Duration {
	t := s.lockTimeout()
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); left < t {
			t = left
		}
	}
	return max(t, time.Millisecond)
}

// runView is runFn for a read-only transaction, which has nothing to do
// after its function but close the record sets it opened.
func runView(tx *Tx, fn func(tx *Tx) error) error {
	defer tx.closeSets()
	return runFn(tx, fn)
}

// runFn runs the caller's function and marks the Tx finished afterwards, so
// a Tx that escapes its function fails loudly instead of touching a closed
// bbolt transaction. A panic in fn becomes an error here, before bbolt's own
// deferred rollback, so it is not mistaken for corruption.
func runFn(tx *Tx, fn func(tx *Tx) error) (err error) {
	defer func() {
		tx.done = true
		if r := recover(); r != nil {
			if cp, ok := r.(corruptPanic); ok {
				// Raised by a Tx method that hit a bbolt panic or a fault:
				// the file, not the caller, is at fault.
				panic(cp)
			}
			switch v := r.(type) {
			case backendFailure:
				err = v.err // a corruption among them is handled as any other
				return
			case userPanic:
				err = fmt.Errorf("panic in state transaction: %v\n%s", v.v, v.stack)
				return
			}
			err = fmt.Errorf("panic in state transaction: %v\n%s", r, debug.Stack())
		}
	}()
	return fn(tx)
}

// Unavailable is a store that cannot be used, for the reason err (a team
// store configured without a database to use): a remote back end whose
// every Update and View fails with err, so callers take the path they
// take for any store that fails, and nothing is written to a store the
// project did not choose.
func Unavailable(dir string, err error) *Store {
	s := Open(dir)
	s.remote = unavailable{err}
	return s
}

// unavailable is Unavailable's back end.
type unavailable struct{ err error }

func (u unavailable) Update(context.Context, time.Duration, func(RemoteTx) error) error { return u.err }
func (u unavailable) View(context.Context, func(RemoteTx) error) error                  { return u.err }
func (u unavailable) Where() string                                                     { return "the team store (unusable)" }
