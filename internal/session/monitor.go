package session

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/usage"
)

// monitorKinds are the events Monitor's handler runs on: a hook
// builds it for those alone.
var monitorKinds = []event.Kind{event.PostTool, event.UserPrompt}

// Monitor tells the agent how full its context window is when it crosses
// a threshold (Options.ContextThresholds): below the last one, to finish
// its step and record anchors; at the last, to wrap up and have the
// context compacted. Each threshold's note comes once (a once-only entry:
// again after a compaction, when the collector forgets what it
// delivered), only the highest one crossed, on the events that carry
// context right away. At the last threshold it re-reads the held intent
// into the note, so the host's summary of the conversation carries it. It
// takes no compaction snapshot: PreCompact takes one, and without one the
// state block is made from the live state, which is fresher than any
// taken at a threshold.
//
// The figures are the host's own (package usage); when they are unknown
// (no transcript, a subagent without its own) the monitor says nothing.
func Monitor(opts OptionsFunc) engine.Handler {
	return engine.Handler{
		Name: "monitor", Priority: engine.Normal,
		Kinds: monitorKinds,
		// The held intent is the project's governance.
		Groups: govstate.Key.Group(),
		Handle: func(c *engine.Call) (event.Result, error) {
			return monitor(c, opts)
		},
	}
}

func monitor(c *engine.Call, opts OptionsFunc) (event.Result, error) {
	ev := c.Event
	if ev.TranscriptPath == "" && ev.ContextUsed == 0 {
		return event.Result{}, nil // nothing to read: no config parsed either
	}
	o := opts()
	if len(o.ContextThresholds) == 0 {
		return event.Result{}, nil
	}
	u, ok := usage.Of(ev, o.ContextWindow)
	if !ok {
		return event.Result{}, nil
	}
	level, last := crossed(o.ContextThresholds, u.Percent())
	if level == 0 {
		return event.Result{}, nil
	}
	held := ""
	if last && !ev.InSubagent() {
		held = heldIntent(c, 0)
	}
	text := monitorNote(u, last, ev.InSubagent(), ev.HostFacts().Compact, held)
	return event.Result{Context: []event.Entry{{
		Source: "monitor", ID: "threshold-" + strconv.Itoa(level), Priority: event.High, Text: text, Once: true,
	}}}, nil
}

// crossed returns the highest threshold at or below percent (0: none) and
// whether it is the last one.
func crossed(thresholds []int, percent int) (level int, last bool) {
	for i, t := range thresholds {
		if t > 0 && percent >= t {
			level, last = t, i == len(thresholds)-1
		}
	}
	return level, last
}

// monitorNote is what the agent is told at a threshold. compact is the
// host's compaction command; held the intent the session holds.
func monitorNote(u usage.Usage, last, subagent bool, compact, held string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "atreides: your context window is %d%% full (%s of %s tokens).", u.Percent(), thousands(u.Used), thousands(u.Window))
	switch {
	case !last:
		b.WriteString(" Finish the step you are on before starting another, and keep what must outlive a compaction: record each decision, constraint and key fact as an anchor with `atreides anchor add --kind decision|constraint|fact \"...\"` (the user can also start a prompt with \"remember:\" or \"decision:\"), and keep the todo list current.")
	case subagent:
		b.WriteString(" Wrap up now: finish or checkpoint the current step and return your result to the lead agent, with what is left to do; do not start new work.")
	default:
		b.WriteString(" Wrap up now: bring the current step to a safe point (work saved, tests run), record anything not yet anchored (`atreides anchor add`), update the todo list, then tell the user the context is nearly full and ask them to compact it")
		if compact != "" {
			b.WriteString(" (" + compact + ")")
		}
		b.WriteString(". atreides has saved your working state and will restore it after the compaction.")
		if held != "" {
			b.WriteString("\nThe intent you hold (keep it in your summary):\n" + cutLines(held, 1000))
		}
	}
	return b.String()
}

// thousands writes n with thousands separators: 150,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
