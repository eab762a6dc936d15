package outbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/filelock"
)

// DirName is the outbox's directory in the state directory.
const DirName = "outbox"

// maxEntry bounds what is read of one entry: an event carries at most the
// hook's payload (32 MiB) and its normalized copy.
const maxEntry = 96 << 20

// Entry is one queued event.
type Entry struct {
	// ID is the event's id: the session remembers it once the event is
	// applied, so that it is never applied twice.
	ID    string       `json:"id"`
	Event *event.Event `json:"event"`
	// Answered is what the host was told.
	Answered Answer `json:"answered"`
	// Audit is the line the decision added to the audit trail, byte for
	// byte, for a store that keeps a copy of the trail (the team's).
	Audit []byte `json:"audit,omitempty"`
	// Why is the store's error that kept the event out.
	Why string `json:"why"`

	name string // the entry's file name; empty until it is written or read
}

// Answer is the part of a decision a replay needs: whether the call ran.
type Answer struct {
	Verdict event.Verdict `json:"verdict"`
	Rule    string        `json:"rule,omitempty"`
	Reason  string        `json:"reason,omitempty"`
}

// Decision is the answer as a decision for engine.Replay.
func (a Answer) Decision() *event.Decision {
	return &event.Decision{Verdict: a.Verdict, Rule: a.Rule, Reason: a.Reason}
}

// NewID returns a new event id: 16 random bytes, hex.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Name is the entry's file name: the event's time, then its id.
func (e *Entry) Name() string {
	if e.name == "" {
		e.name = fmt.Sprintf("%019d-%s.json", e.Event.Time.UnixNano(), e.ID)
	}
	return e.name
}

// Put writes e into the outbox of the state directory, durably: when Put
// returns nil the entry survives a crash.
func Put(stateDir string, e *Entry) error {
	data, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("outbox: encode event: %w", err)
	}
	base, rel := confined.Split(stateDir, 1)
	d, err := confined.MkdirAll(base, filepath.Join(rel, DirName), 0o700)
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	defer d.Close()
	if err := d.ReplaceFile(e.Name(), data, true); err != nil {
		return fmt.Errorf("outbox: write %s: %w", e.Name(), err)
	}
	if err := d.Sync(); err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	return nil
}

// Waiting counts the entries waiting in the outbox; no outbox is none. It
// is one failed open on the common path, where no outbox was ever made.
func Waiting(stateDir string) (int, error) {
	d, err := openDir(stateDir)
	if d == nil {
		return 0, err
	}
	defer d.Close()
	names, err := list(d)
	return len(names), err
}

// openDir opens the outbox of the state directory: nil and no error when
// there is none.
func openDir(stateDir string) (*confined.Dir, error) {
	// Most state directories never had an outbox, and every event asks:
	// one lstat of the plain path says so, where the confined walk costs
	// four system calls. Whatever that walk could reach, the plain path
	// reaches too (it follows the links the walk refuses), so a missing
	// one is missing for the walk as well.
	if _, err := os.Lstat(filepath.Join(stateDir, DirName)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	base, rel := confined.Split(stateDir, 1)
	d, err := confined.OpenDir(base, filepath.Join(rel, DirName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	return d, nil
}

// list returns the names of the entries waiting in d, oldest first.
func list(d *confined.Dir) ([]string, error) {
	all, err := d.Names()
	if err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	names := all[:0]
	for _, n := range all {
		if strings.HasSuffix(n, ".json") && !strings.HasPrefix(n, ".") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, nil
}

// ErrBusy is the error of a Replay that could not take the outbox's lock
// in time: another hook is replaying it.
var ErrBusy = errors.New("another hook is replaying the outbox")

// Replay hands the waiting entries to apply, oldest first, under the
// outbox's lock, and removes each one apply saved (returned nil). It
// stops at the first apply cannot save, returning its error, or when ctx
// is done; left is how many entries still wait then. logf is told of
// entries set aside.
func Replay(ctx context.Context, stateDir string, apply func(*Entry) error, logf func(string, ...any)) (left int, err error) {
	d, err := openDir(stateDir)
	if d == nil {
		return 0, err
	}
	defer d.Close()
	names, err := list(d)
	if err != nil || len(names) == 0 {
		return len(names), err
	}
	unlock, err := lock(ctx, d)
	if err != nil {
		return len(names), err
	}
	defer unlock()
	// Listed again under the lock: the hook that held it removed some.
	if names, err = list(d); err != nil {
		return len(names), err
	}
	for i, name := range names {
		if err := ctx.Err(); err != nil {
			return len(names) - i, err
		}
		e, rerr := read(d, name)
		if rerr != nil {
			logf("outbox: %s set aside, not replayed: %v", name, rerr)
			if err := d.Rename(name, name+".unreadable"); err != nil {
				return len(names) - i, fmt.Errorf("outbox: set %s aside: %w", name, err)
			}
			continue
		}
		if err := apply(e); err != nil {
			return len(names) - i, err
		}
		if err := d.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return len(names) - i - 1, fmt.Errorf("outbox: remove %s: %w", name, err)
		}
	}
	return 0, nil
}

func read(d *confined.Dir, name string) (*Entry, error) {
	data, err := d.ReadFile(name, maxEntry)
	if err != nil {
		return nil, err
	}
	e := &Entry{}
	if err := json.Unmarshal(data, e); err != nil {
		return nil, err
	}
	if e.ID == "" || e.Event == nil {
		return nil, errors.New("no event or no id")
	}
	// A raw message the event did not have is encoded as null; it comes
	// back as none, as the adapter left it.
	for _, m := range []*json.RawMessage{&e.Event.Tool.Input, &e.Event.Response} {
		if string(*m) == "null" {
			*m = nil
		}
	}
	e.name = name
	return e, nil
}

// lockName is the lock file in the outbox.
const lockName = "lock"

// lock takes the outbox's lock, polling until ctx is done: the hook that
// holds it is replaying and will be done soon, or the budget runs out.
func lock(ctx context.Context, d *confined.Dir) (unlock func(), err error) {
	f, err := d.OpenFile(lockName, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("outbox: lock: %w", err)
	}
	for {
		ok, err := filelock.TryLock(f, true)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("outbox: lock: %w", err)
		}
		if ok {
			return func() { f.Close() }, nil
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ErrBusy
		case <-time.After(5 * time.Millisecond):
		}
	}
}
