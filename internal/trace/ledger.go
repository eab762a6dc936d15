package trace

import (
	"context"
	"errors"
	"fmt"
	"github.com/atreides-dev/atreides/internal/govstate"
	"io/fs"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// Bucket is the team store's append-only bucket that holds the ledger, one
// record per entry, in the order appended: with a team store every
// checkout of the project appends there, chained to the head in the
// shared project state, so there is one chain per project however many
// machines write it. The PostgreSQL back end refuses to update or delete
// its rows (pgstore's schema 2).
const Bucket = "ledger"

// Ledger is a project's ledger as read by [Load], with the head its state
// keeps, both from one read.
type Ledger struct {
	// Team is set when the ledger is the team store's [Bucket]; else it
	// is the file Path.
	Team bool
	Path string // the file, or the store (without secrets)
	data []byte // one record per line
	err  error  // the file could not be read
	head *Head  // the state's head; nil: none
	hErr error  // the state could not be read
}

// Load reads the ledger of the project whose store is st and the head the
// project's state keeps, in one read: every reader of the ledger (trace
// verify and show, the dashboard and export, scoped commits) goes through
// it, so each reads the team store's bucket in team mode and the file
// otherwise. The file is read inside the store's read so that no append
// (made under the store's lock) falls between the two. It never creates,
// repairs or migrates anything: a verifier must not change what it
// checks. An error is returned only when a team store cannot be read; a
// file that cannot be read, or a state that cannot, is reported by
// [Ledger.Verify] and [Ledger.Entries].
func Load(ctx context.Context, st *store.Store) (*Ledger, error) {
	l := &Ledger{Team: st.Remote() != nil}
	if l.Team {
		l.Path = st.Remote().Where()
		err := st.ViewNoRepair(ctx, func(tx *store.Tx) error {
			l.data = nil
			var err error
			if l.head, err = loadHead(tx); err != nil {
				return err
			}
			return tx.ForEach(Bucket, func(_ string, v []byte) error {
				l.data = append(append(l.data, v...), '\n')
				return nil
			})
		})
		if err != nil {
			return nil, fmt.Errorf("read the ledger in %s: %w", l.Path, err)
		}
		return l, nil
	}
	l.Path = filepath.Join(st.Dir(), FileName)
	l.hErr = st.ViewNoRepair(ctx, func(tx *store.Tx) error {
		var err error
		if l.head, err = loadHead(tx); err != nil {
			return err
		}
		l.data, l.err = l.readFile()
		return nil
	})
	if l.hErr != nil {
		l.data, l.err = l.readFile()
	}
	return l, nil
}

func (l *Ledger) readFile() ([]byte, error) {
	b, err := readLedger(l.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// loadHead is the ledger's head the project's state keeps; nil: none.
func loadHead(tx *store.Tx) (*Head, error) {
	p, err := state.LoadProject(tx)
	if err != nil {
		return nil, err
	}
	h := govstate.Key.Read(p).Trace
	if h.Seq == 0 {
		return nil, nil
	}
	return &Head{Seq: h.Seq, Hash: h.Hash}, nil
}

// Entries are the ledger's lines, as [Read] gives them.
func (l *Ledger) Entries() ([]Entry, error) {
	if l.err != nil {
		return nil, l.err
	}
	return Parse(l.data), nil
}

// Head is the head the project's state keeps (nil: none), and why it is
// not known when the state could not be read.
func (l *Ledger) Head() (*Head, error) { return l.head, l.hErr }

// Verify checks the ledger as [Verify] checks the file, against the head
// of the project's state and, for the file, the signed checkpoint a (nil:
// none). A team ledger has no checkpoint: its records come from every
// machine, which no one machine's key can vouch for, and the database
// that keeps them refuses to change them (docs/ledger.md).
func (l *Ledger) Verify(a *Anchor) Report {
	if l.Team {
		return VerifyTeam(l.data, l.head)
	}
	rep := verify(l.data, l.err, heads{state: l.head, anchor: a})
	rep.Missing = Missing(l.Path)
	if l.hErr != nil && rep.Head.Source == SourceNone && rep.Problem != nil {
		rep.Problem.Msg += " (the state file could not be read: " + l.hErr.Error() + ")"
	}
	return rep
}

// VerifyTeam checks a team store's ledger, its records one per line in
// data (the [Bucket]'s entries in order), as [Verify] checks the file,
// against head, the head of the project's state in the same store read.
// No checkpoint is involved (see [Ledger.Verify]).
func VerifyTeam(data []byte, head *Head) Report {
	return verify(data, nil, heads{state: head, team: true})
}
