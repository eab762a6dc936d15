package session

import (
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// Check is one health check of atreides's own set-up, run at session
// start: it returns the problems it found, each a sentence for the user.
// A check must be cheap (a few file reads at most): it delays the first
// answer of every session. The set-up checks given to [Health] run before
// the state lock is taken, so c.State is nil for them.
type Check func(c *engine.Call) []string

// healthKey keeps the set-up checks' problems in the event's memo, from
// Prepare to Handle.
type healthKey struct{}

// healthKinds are the events Health's handler runs on: a hook
// builds it for those alone.
var healthKinds = []event.Kind{event.SessionStart}

// Health runs quick checks at session start (state readable, configuration
// valid, installation whole) and tells the user once what is wrong, as a
// warning (Claude Code's systemMessage), and the agent in one line, so it
// can explain why something is not enforced. It runs when a session
// starts or resumes, never after a compaction or on OpenCode's per-request
// system prompt (source "prompt"), so a problem is not repeated at every
// event; `atreides doctor` has the details.
//
// The set-up checks read files (settings, configuration) and need no
// state: they run in Prepare, outside the lock every other hook of the
// project waits on. Only [StateCheck] runs under it.
func Health(setup ...Check) engine.Handler {
	skip := func(ev *event.Event) bool { return ev.Source == "compact" || ev.Source == "prompt" }
	return engine.Handler{
		Name: "health", Priority: engine.Normal,
		Kinds:  healthKinds,
		Groups: state.NoGroups, // the salvage notice is in the project's core
		Prepare: func(c *engine.Call) {
			if skip(c.Event) {
				return
			}
			var problems []string
			for _, check := range setup {
				problems = append(problems, check(c)...)
			}
			c.Memo.Set(healthKey{}, problems)
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			if skip(c.Event) {
				return event.Result{}, nil
			}
			problems := StateCheck(c)
			if p, ok := c.Memo.Get(healthKey{}); ok {
				problems = append(problems, p.([]string)...)
			}
			if len(problems) == 0 {
				return event.Result{}, nil
			}
			text := strings.Join(problems, "; ")
			return event.Result{
				Warning: "atreides: " + text + ". Run `atreides doctor` for details.",
				Context: event.Note("health", "setup", event.High, "atreides set-up problems the user was told about: "+text+"."),
			}, nil
		},
	}
}

// StateCheck reports a state store that could not be opened: the handlers
// then run on a fresh state that is not kept.
func StateCheck(c *engine.Call) []string {
	if c.State.Unsaved {
		return []string{"its state (.atreides/state.db) could not be opened, so todos, the stop gate and history are not kept for now"}
	}
	// A project record rebuilt from its parts is told once, to the first
	// session that starts after it: what it lost may need doing again.
	if sv := c.State.Project.Salvaged; sv != nil {
		c.State.Project.Salvaged = nil
		lost := "nothing"
		if len(sv.Lost) > 0 {
			lost = strings.Join(sv.Lost, ", ")
		}
		return []string{"the project's state record was damaged and rebuilt at " + sv.Time.Local().Format(time.DateTime) + "; lost: " + lost}
	}
	return nil
}
