package hook

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/outbox"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// queueable reports whether an event whose state was not saved because of
// err waits in the outbox: the store was out of reach or too slow, which
// passes. A store the configuration cannot open (no DSN, a back end this
// binary does not link) does not: waiting would not fix it, and the log
// says why at every event.
func queueable(err error) bool {
	var u *store.UnreachableError
	return errors.As(err, &u) || errors.Is(err, store.ErrLockTimeout) || errors.Is(err, context.DeadlineExceeded)
}

// replayShare is the part of the engine's remaining time the outbox's
// replay may take before the event's own run.
const replayShare = 0.5

// replayOutbox applies the events waiting in the project's outbox, oldest
// first, before the hook's own event. It returns how many still wait (the
// store is still out of reach, or the time ran out) and why: then the
// hook's event must wait behind them. handlers gives every handler,
// asked only when events wait. from, when the store is a team's, is this
// checkout's origin in the shared audit trail.
func replayOutbox(ctx context.Context, dir string, loader engine.StoreLoader, env engine.Env, handlers func() []engine.Handler, budget func() int, from *audit.Origin) (left int, err error) {
	n, err := outbox.Waiting(dir)
	if n == 0 {
		if err != nil {
			env.Logf("%v", err)
		}
		return 0, nil
	}
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Duration(float64(time.Until(dl))*replayShare)))
		defer cancel()
	}
	hs := handlers() // every kind's: the kept events are of any
	replayed := 0
	left, err = outbox.Replay(ctx, dir, func(e *outbox.Entry) error {
		// The host's facts are this binary's, never the file's (the
		// outbox writes them with the event).
		e.Event.Facts = all.Facts()[e.Event.Host]
		l := loader
		l.EventID = e.ID
		eng := engine.New(l, env, hs...)
		eng.SessionBudget = budget // counted as the event would have been
		if from != nil {
			eng.Saving = func(es *engine.State, d *event.Decision) {
				if line := replayedLine(e, d, *from); line != nil {
					es.Append(audit.Bucket, line)
				}
			}
		}
		err := eng.Replay(ctx, e.Event, e.Answered.Decision())
		switch {
		case err == nil:
			replayed++
		case errors.Is(err, engine.ErrApplied):
			err = nil
		case !queueable(err):
			// As it would have been had it come now: the hook logs
			// its state's failure and goes on.
			env.Logf("outbox: %s of session %s not replayed, dropped: %v", e.Event.Kind, e.Event.SessionID, err)
			err = nil
		}
		return err
	}, env.Logf)
	if replayed > 0 {
		env.Logf("outbox: %d events replayed into the store, %d still waiting", replayed, left)
	}
	return left, err
}

// replayedLine is what the team's shared trail gets for a replayed event:
// the line of the decision the host was given, as this machine's file got
// it; or, for an event that left none (its outage run had no state, so
// no marks to record), the replay's own when the marks it made now
// (a strike, a todo, a phase) ask for one.
func replayedLine(e *outbox.Entry, d *event.Decision, from audit.Origin) []byte {
	if e.Audit != nil {
		return e.Audit
	}
	if audit.Wanted(e.Event, d) {
		return audit.Line(e.Event, d, 0, from)
	}
	return nil
}

// waitingLoader is the loader of an event that must wait behind the
// outbox's: its state is not loaded, and the handlers say why.
type waitingLoader struct{ err error }

func (l waitingLoader) Update(context.Context, *event.Event, state.Groups, func(*engine.State) error) error {
	return l.err
}

// queueEvent puts an event whose state was not saved into the outbox,
// under id (none yet: a new one), with the audit line of its answer when
// the team store keeps a shared trail. A failure is the log's: the
// event's changes are then lost, as they were before the outbox.
func queueEvent(root string, ev *event.Event, d *event.Decision, id string, shared bool, line []byte, why error, log *project.Log) {
	if id == "" {
		id = outbox.NewID()
	}
	e := &outbox.Entry{ID: id, Event: ev, Why: why.Error(),
		Answered: outbox.Answer{Verdict: d.Verdict, Rule: d.Rule, Reason: d.Reason}}
	if shared {
		e.Audit = line
	}
	if err := outbox.Put(project.StateDir(root), e); err != nil {
		log.Logf("state for session %s lost: %v", ev.SessionID, err)
		return
	}
	log.Logf("outbox: %s of session %s queued until the store can be reached", ev.Kind, ev.SessionID)
}

// originOf is the origin a line records: none outside a team's trail.
func originOf(from *audit.Origin) audit.Origin {
	if from == nil {
		return audit.Origin{}
	}
	return *from
}

// waitingErr says why an event's state waits behind the outbox's.
func waitingErr(left int, err error) error {
	return fmt.Errorf("%d earlier events of this checkout wait in .atreides/outbox for the state store: %w", left, err)
}
