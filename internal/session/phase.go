package session

import (
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/prompt"
	"github.com/atreides-dev/atreides/internal/sanitize"
	"github.com/atreides-dev/atreides/internal/shellcall"
)

// assessmentCalls is how many read-only calls after a prompt count as
// assessment; the reads after them are exploration.
const assessmentCalls = 3

// activity is what one tool call did, as far as phases are concerned.
type activity int

const (
	actNone   activity = iota // says nothing about the phase (todo, unknown, MCP)
	actRead                   // reads, searches, fetches, read-only shell
	actChange                 // writes files
	actVerify                 // runs tests, builds or linters
)

// PhaseTracker infers the workflow phase from the tool stream and the
// user's prompts, records every transition, and offers the new phase with
// its guidance as one short line of context only when the phase changed,
// and after a tool call only the first time the session enters that phase
// (until a compaction): the agent is not told the same thing on every
// call or prompt. Only a prompt that starts a new task (newTask) moves
// the phase back to intent and earns a line (the same rule decides both,
// so they cannot disagree).
func PhaseTracker(opts OptionsFunc) engine.Handler {
	return engine.Handler{
		Name: "phase", Priority: engine.Normal,
		Kinds:  []event.Kind{event.UserPrompt, event.PostTool},
		Groups: phase.Key.Group() | WorkKey.Group(),
		Prepare: func(c *engine.Call) {
			if c.Event.Kind == event.PostTool && c.Event.Tool.Name == event.Shell {
				shellcall.Effects(c) // walked outside the lock
			}
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			return trackPhase(c, opts)
		},
	}
}

func trackPhase(c *engine.Call, opts OptionsFunc) (event.Result, error) {
	ev, s := c.Event, c.State.Session
	var act activity
	var cause string
	if ev.Kind == event.PostTool {
		// Every agent's changes and checks count for the work to verify:
		// a subagent's edits are files changed all the same.
		act, cause = classify(c)
		// The cause quotes the command (its first word may be PGPASSWORD=…)
		// and is kept in the state: sanitized like every stored command.
		cause = sanitize.String(cause, 0)
		trackWork(c, act, cause)
	}
	if ev.InSubagent() {
		// A subagent's reads and edits are its own; the parent's phase
		// moves when the delegation returns.
		return event.Result{}, nil
	}
	ph := phase.Key.Of(s)
	switch ev.Kind {
	case event.UserPrompt:
		if !newTask(ev.Prompt) {
			return event.Result{}, nil
		}
		class := prompt.Classify(promptWords(c))
		WorkKey.Of(s).Class = string(class)
		changed := ph.Set(phase.Intent, promptCause(class), ev.Time)
		ph.Calls = 0
		if !changed {
			return event.Result{}, nil
		}
		text := phaseText(phase.Intent, opts)
		if class != prompt.Unknown {
			text = classText(text, class, opts)
		}
		return event.Result{Context: event.Note("phase", "", event.Normal, text)}, nil
	case event.PostTool:
		to := nextPhase(ph.Current, ph.Calls, act)
		ph.Calls++
		if !ph.Set(to, cause, ev.Time) {
			return event.Result{}, nil
		}
		ph.Calls = 1 // the call that moved the phase is its first
		// Said once per phase until the next compaction: in an edit and
		// test loop the agent flips between implementation and
		// verification every few calls, and knows it.
		return event.Result{Context: []event.Entry{{Source: "phase", ID: to, Priority: event.Normal, Text: phaseText(to, opts), Once: true}}}, nil
	}
	return event.Result{}, nil
}

// newTask reports whether a prompt starts a new task, the one thing that
// sends the phase back to intent. A prompt that only says to go on ("ok",
// "continue": prompt.Continuation) does not, nor one whose first word
// after any acknowledgement says to carry on ("continue where you left
// off", "keep going until the tests pass", "go ahead and implement it":
// prompt.Resumes): the user who types them after a compaction restored
// the session's phase wants the work finished, not restated. Everything
// else does, a question included: telling a question about the current
// work from a new request needs the conversation, which the hook does not
// read on every prompt, and a needless intent line costs one line while a
// missed one lets the agent skip restating a new request.
func newTask(text string) bool {
	return !prompt.Continuation(text) && !prompt.Resumes(text)
}

// phaseText is the one short line for a new phase: where the agent is
// and the phase's guidance. Where it was and what moved it (which named
// the file, by its absolute path) are left out: the agent did that call
// itself, and the transition record keeps them for `status`.
func phaseText(to string, opts OptionsFunc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "atreides phase: %s.", to)
	if g := opts().Guidance[to]; g != "" {
		b.WriteString(" ")
		b.WriteString(g)
	}
	return b.String()
}

// promptCause is the phase transition's cause for a prompt of a class.
func promptCause(class prompt.Class) string {
	if class == prompt.Unknown {
		return "user prompt"
	}
	return "user prompt (" + string(class) + ")"
}

// classText puts the prompt's class into the phase line, with the class's
// guidance after the phase's: "atreides phase: intent (bugfix). ...".
func classText(line string, class prompt.Class, opts OptionsFunc) string {
	head, rest, _ := strings.Cut(line, ".")
	line = head + " (" + string(class) + ")." + rest
	if g := opts().Classes[string(class)]; g != "" {
		line += " " + g
	}
	return line
}

// classify says what a finished tool call means for the phase, with a short
// cause for the transition record.
func classify(c *engine.Call) (activity, string) {
	ev := c.Event
	t := ev.Tool
	target := projectRelative(Summary(t), ev.ProjectDir)
	switch t.Name {
	case event.Read, event.Search, event.Fetch:
		return actRead, strings.TrimSpace(string(t.Name) + " " + shorten(target, 80))
	case event.Delegate:
		return actRead, "delegation"
	case event.Write, event.Edit:
		if ev.Failed {
			return actNone, ""
		}
		return actChange, strings.TrimSpace(string(t.Name) + " " + shorten(target, 80))
	case event.Shell:
		info := shellcall.Effects(c)
		switch {
		case info.Verifies != "":
			// A failing test run is still a verification.
			return actVerify, info.Verifies
		case info.Changes != "" && !ev.Failed:
			return actChange, shorten(info.Changes, 80)
		case info.Changes != "":
			return actNone, ""
		}
		return actRead, "shell " + shorten(firstWord(t.Command), 40)
	}
	return actNone, ""
}

// nextPhase is the phase after an activity. Reads never pull the agent
// out of implementation or verification (reading while fixing is normal,
// and flapping phases would be noise); a test run before any change is
// exploration, since nothing has been changed to verify.
func nextPhase(cur string, calls int, act activity) string {
	if act == actNone {
		return cur
	}
	if cur == "" {
		cur = phase.Intent
	}
	implementing := cur == phase.Implementation || cur == phase.Verification
	switch act {
	case actChange:
		return phase.Implementation
	case actVerify:
		if implementing {
			return phase.Verification
		}
		fallthrough
	case actRead:
		switch {
		case cur == phase.Intent:
			return phase.Assessment
		case cur == phase.Assessment && calls >= assessmentCalls:
			return phase.Exploration
		}
	}
	return cur
}

// projectRelative writes the paths under root in s relative to it: a
// transition's cause is shown by `status` and the dashboard, where the
// project is known and its absolute path only takes room.
func projectRelative(s, root string) string {
	if root == "" || root == "/" {
		return s
	}
	return strings.ReplaceAll(s, strings.TrimSuffix(root, "/")+"/", "")
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// shorten cuts s to n bytes at a rune boundary, marking the cut.
func shorten(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) <= n {
		return s
	}
	i := n - 1
	for i > 0 && (s[i]&0xC0) == 0x80 {
		i--
	}
	return s[:i] + "…"
}
