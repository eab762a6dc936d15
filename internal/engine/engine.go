package engine

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

// Priority orders handlers: critical handlers run first and fail closed.
type Priority int

// Priorities, from first to last.
const (
	Critical Priority = iota // security: a failure denies
	High                     // governance
	Normal                   // session orchestration
	Low                      // recording; never blocks
)

func (p Priority) String() string {
	return [...]string{"critical", "high", "normal", "low"}[p]
}

// Handler reacts to events of the kinds it lists.
type Handler struct {
	Name     string
	Priority Priority
	Kinds    []event.Kind // the kinds it handles; empty means all
	// Handle answers one event. It may change c.State.
	Handle func(c *Call) (event.Result, error)
}

func (h *Handler) wants(k event.Kind) bool {
	return len(h.Kinds) == 0 || slices.Contains(h.Kinds, k)
}

// Call is what a handler sees of one event.
type Call struct {
	Event *event.Event
	// State is the session and project state, loaded once per event.
	State *State
	// Decision is what the handlers before this one decided; the record
	// handlers read it to log the outcome.
	Decision *event.Decision
	// Env gives access to configuration and the rest of the world, lazily.
	Env Env
}

// Env is what handlers may ask of their surroundings. Implementations load
// things on first use so that an event that needs no configuration never
// parses any.
type Env interface {
	Logf(format string, args ...any)
	Now() time.Time
}

// Loader loads and saves the state around a run. Update must call fn at
// most once; when it fails before calling fn, the engine runs the handlers
// on a fresh state that is not saved.
type Loader interface {
	Update(ctx context.Context, ev *event.Event, fn func(*State) error) error
}

// Engine holds the registered handlers.
type Engine struct {
	handlers []Handler
	loader   Loader
	env      Env
}

// New returns an engine over the handlers, sorted by priority (stable, so
// registration order breaks ties).
func New(loader Loader, env Env, hs ...Handler) *Engine {
	hs = slices.Clone(hs)
	slices.SortStableFunc(hs, func(a, b Handler) int { return int(a.Priority) - int(b.Priority) })
	return &Engine{handlers: hs, loader: loader, env: env}
}

// Run answers one event.
func (e *Engine) Run(ctx context.Context, ev *event.Event) *event.Decision {
	var (
		d   *event.Decision
		ran bool
	)
	err := e.loader.Update(ctx, ev, func(st *State) error {
		d, ran = e.runHandlers(ev, st), true
		return nil
	})
	if err != nil {
		e.env.Logf("state for session %s not loaded or saved: %v", ev.SessionID, err)
	}
	if !ran {
		d = e.runHandlers(ev, NewState(ev))
	}
	return d
}

func (e *Engine) runHandlers(ev *event.Event, st *State) *event.Decision {
	d := &event.Decision{}
	for i := range e.handlers {
		h := &e.handlers[i]
		if !h.wants(ev.Kind) {
			continue
		}
		r, err := e.call(h, &Call{Event: ev, State: st, Decision: d, Env: e.env})
		if err != nil {
			if h.Priority == Critical && (ev.Kind == event.PreTool || ev.Kind == event.PermissionRequest) {
				r = event.Result{
					Verdict: event.Deny,
					Rule:    "atreides.handler-failed",
					Reason:  fmt.Sprintf("atreides could not check this call (%s failed: %v), so it is blocked. Retry, or ask the user to check `atreides doctor`.", h.Name, err),
				}
			} else {
				e.env.Logf("handler %s (%s) on %s failed, skipped: %v", h.Name, h.Priority, ev.Kind, err)
				continue
			}
		}
		d.Merge(h.Name, r)
	}
	return d
}

// call runs one handler and turns a panic into an error.
func (e *Engine) call(h *Handler, c *Call) (r event.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			e.env.Logf("handler %s panicked: %v\n%s", h.Name, p, debug.Stack())
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return h.Handle(c)
}
