// Package governance is the engine's governance handler: the intent gate
// (no write before an intent is selected, no write outside its owned scope),
// intent leases, the intent a subagent works under, and the trace ledger.
// (Delegation limits are package delegation's, and apply whatever the
// governance setting.)
//
// All shared state (who holds which intent, expansion requests, the ledger
// head) lives in state.Project and is read and written in the engine's one
// transaction per event, under the store's lock; selecting an intent is
// therefore a compare-and-swap. The agent's own tools (select an intent,
// ask for more scope) call [Select] and [RequestExpansion] inside their own
// store transaction.
package governance

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/project"
)

// Options are the governance settings, mapped from the configuration's
// governance section by the caller.
type Options struct {
	Enabled       bool
	Lease         time.Duration
	UnknownWrites event.Verdict
	Exempt        []string
	Trace         bool
	// TraceOnly keeps the ledger while Enabled is false: writes are
	// snapshot and recorded as with governance on, but nothing is gated
	// and no intent is asked for (Trace is implied). The task system's scoped commits
	// (tasks.commits.enabled) need the ledger to know a task's files.
	TraceOnly bool
	// Version gives atreides's version, written into trace records; nil
	// writes none. It is asked only when a record is written: a build
	// without a release stamp reads its module information for it.
	Version func() string
	// KeyDir is the user's configuration directory, which holds the key
	// that signs the ledger's checkpoints and the checkpoints themselves;
	// "" signs none.
	KeyDir string
	// Team is set when the project's state is in a team store
	// (store.backend other than the embedded one): the ledger is then the
	// store's trace.Bucket, appended in the event's transaction, and
	// neither trace.jsonl, its queue nor a checkpoint is written.
	Team bool
	// ConfigErr is set when the configuration could not be read; the gate
	// then fails closed on writes only if Enabled could be read as true.
	ConfigErr error
}

// FromConfig maps the configuration's governance section, and the task
// system's scoped commits, which find a task's files in the ledger: with
// them on the ledger is kept, without the gate when governance is off.
// The caller adds what the configuration does not hold (Version, KeyDir,
// Team, ConfigErr).
func FromConfig(c *config.Config) Options {
	g := &c.Governance
	o := Options{Enabled: g.Enabled, Lease: time.Duration(g.LeaseMinutes) * time.Minute, Trace: g.Trace}
	switch g.UnknownWrites {
	case config.Allow:
		o.UnknownWrites = event.Allow
	case config.Deny:
		o.UnknownWrites = event.Deny
	default:
		o.UnknownWrites = event.Ask
	}
	for _, x := range g.Exempt {
		o.Exempt = append(o.Exempt, string(x))
	}
	if c.Tasks.Commits.Enabled {
		o.Trace, o.TraceOnly = true, !o.Enabled
	}
	return o
}

// active reports whether the handler has anything to do.
func (o Options) active() bool { return o.Enabled || o.TraceOnly }

// OptionsFunc returns the options on first use.
type OptionsFunc func() Options

// Intents loads the project's intents file once per process.
type Intents func(root string) (*intent.File, error)

// LoadIntents returns an [Intents] that reads <root>/.atreides/intents.yaml
// once.
func LoadIntents() Intents {
	var (
		once sync.Once
		f    *intent.File
		err  error
	)
	return func(root string) (*intent.File, error) {
		once.Do(func() { f, err = intent.Load(IntentsPath(root)) })
		return f, err
	}
}

// ReadIntents are the intents of the project at root, read now: none
// when it has no intents file.
func ReadIntents(root string) (*intent.File, error) {
	f, err := intent.Load(IntentsPath(root))
	if err != nil && !intent.NotExist(err) {
		return f, err
	}
	return f, nil
}

// IntentsPath is the intents file of the project at root.
func IntentsPath(root string) string {
	return filepath.Join(project.StateDir(root), intent.FileName)
}

// TracePath is the ledger of the project at root.
func TracePath(root string) string {
	return filepath.Join(project.StateDir(root), "trace.jsonl")
}
