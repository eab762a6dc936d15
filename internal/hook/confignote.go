package hook

import (
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/state"
)

// A configuration that cannot be read whole leaves the guard on its
// fallback policy (package policy). The user is told at session start,
// with every problem at its file:line in the log; the agent hears one
// line once per session (an event.Entry with Once, which the engine
// delivers at most once a session, again only after a compaction), at
// the session's start or at its first prompt or tool call after the
// file broke: never with every call, and never the YAML errors
// themselves.

// configNoteKinds are the events configNote's handler runs on.
var configNoteKinds = []event.Kind{event.SessionStart, event.UserPrompt, event.PreTool}

// configNoteKey keeps what Prepare found for Handle.
type configNoteKey struct{}

// configNote is the handler that tells it.
func configNote(s *Settings) engine.Handler {
	return engine.Handler{
		Name: "config-note", Priority: engine.Normal,
		Kinds:  configNoteKinds,
		Groups: state.NoGroups,
		// The files are read here, outside the state lock.
		Prepare: func(c *engine.Call) {
			if r, ok := s.configNote(c); ok {
				c.Memo.Set(configNoteKey{}, r)
			}
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			r, _ := c.Memo.Get(configNoteKey{})
			res, _ := r.(event.Result)
			return res, nil
		},
	}
}

// configNote is the note on a broken configuration, ok false when the
// configuration is whole. It costs nothing more than the guard's own
// reading when it is: the loaded configuration, its guard names checked.
func (s *Settings) configNote(c *engine.Call) (event.Result, bool) {
	if s.builtin() {
		return event.Result{}, false
	}
	cfg, err := s.cfg.Get()
	if err == nil {
		if errs := policy.NameErrors(cfg); len(errs) > 0 {
			err = &config.ValidationError{Errs: errs}
		}
	}
	if err == nil {
		return event.Result{}, false
	}
	var res event.Result
	first := s.firstProblem(err)
	if c.Event.Starts() && c.Event.Source != "compact" {
		// The user's line, with every problem logged once per session.
		res.Warning = "atreides: " + s.brokenConfig(c, err) + "."
	}
	res.Context = []event.Entry{{
		Source: "config", ID: "fallback", Priority: event.High, Once: true,
		Text: "atreides: the user's configuration could not be read whole (" + first + "), so until it is fixed the guard uses its built-in policy tightened by the settings that could be read; the user has been told.",
	}}
	return res, true
}
