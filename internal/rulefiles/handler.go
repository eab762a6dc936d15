package rulefiles

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/collector"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/shellcall"
	"github.com/atreides-dev/atreides/internal/state"
)

// Source is the context entries' source.
const Source = "rules"

// memoKey keeps what Prepare found for Handle.
type memoKey struct{}

// HandlerKinds are the events [Handler]'s handler runs on: a hook
// builds it for those alone.
var HandlerKinds = []event.Kind{event.PostTool}

// Handler registers the rules of the files a read, write or edit touched,
// or a shell command printed with a plain reader.
// The files are found and read in Prepare, outside the state lock; Handle
// leaves out what the agent already has and fits the rest to the budget.
// It reads no state group of its own: the collector's is always loaded.
func Handler(opts func() Options) engine.Handler {
	return engine.Handler{
		Name: "rule-files", Priority: engine.Normal,
		Kinds:  HandlerKinds,
		Groups: state.NoGroups,
		Prepare: func(c *engine.Call) {
			s, ok := touched(c.Event, func() []string { return shellcall.Effects(c).Reads })
			if !ok {
				return
			}
			o := opts()
			if !o.Enabled || o.Budget <= 0 {
				return
			}
			sk := o.hostLoads(s.host, s.root)
			if s.shell {
				// The hosts that attach a directory's rules file attach
				// it to their own read tool's result only.
				sk.nested = false
			}
			fs := append(dirRules(s, o, sk, c.Env.Logf), condRules(s, o, sk, c.Env.Logf)...)
			c.Memo.Set(memoKey{}, fs)
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			v, _ := c.Memo.Get(memoKey{})
			fs, _ := v.([]found)
			if len(fs) == 0 {
				return event.Result{}, nil
			}
			had := func(e event.Entry) bool {
				return collector.Delivered(collector.StateKey.Of(c.State.Session), c.Event.AgentID, e)
			}
			return event.Result{Context: fit(fs, opts().Budget, had)}, nil
		},
	}
}

// fit turns the files into entries, in order, within budget bytes: those
// the agent had (delivered before) are left out first, then each file that
// does not fit in what is left is replaced by a one-line note. Pure.
func fit(fs []found, budget int, had func(event.Entry) bool) []event.Entry {
	var out []event.Entry
	for _, f := range fs {
		e := entry(f)
		if had(e) {
			continue
		}
		if f.text == "" || len(e.Text) > budget {
			if n := note(f); !had(n) {
				out = append(out, n)
			}
			continue
		}
		budget -= len(e.Text)
		out = append(out, e)
	}
	return out
}

// entry is the rules of one file, once per session and content.
func entry(f found) event.Entry {
	return event.Entry{
		Source: Source, ID: f.rel + "@" + f.hash, Priority: event.Normal, Once: true,
		Text: fmt.Sprintf("Project rules for %s (%s, added by atreides):\n%s", f.what, f.rel, f.text),
	}
}

// note says that a file was left out to keep within the budget.
func note(f found) event.Entry {
	return event.Entry{
		Source: Source, ID: f.rel + "@" + f.hash + "#left-out", Priority: event.Normal, Once: true,
		Text: fmt.Sprintf("[atreides: %s (rules for %s, %d bytes) was left out to keep within the rules budget; read it yourself before you work on these files.]", f.rel, f.what, f.size),
	}
}
