package session

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/lazy"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/shellcall"
)

// trackWork updates the work group after a tool call: a call that changed
// source files of the project joins the batch to verify, and a test,
// build or lint run (passing or not: the agent has seen the result)
// closes it.
func trackWork(c *engine.Call, act activity, cause string) {
	w := WorkKey.Of(c.State.Session)
	switch act {
	case actVerify:
		w.Verified()
	case actChange:
		if changesSource(c) {
			w.Changed(cause)
		}
	}
}

// changesSource reports whether a changing call wrote a source file of
// the project: a file the project's tests, build or linters could cover.
// Shell writes count only when the command names them (sed -i x.go, a
// redirection): git's bookkeeping (git add, git commit) names none, and a
// command whose writes cannot be listed is given the benefit of the doubt.
func changesSource(c *engine.Call) bool {
	ev := c.Event
	paths := ev.Tool.Paths
	if ev.Tool.Name == event.Shell {
		paths = shellcall.Effects(c).Writes
	}
	for _, p := range paths {
		if sourcePath(ev.ProjectDir, cmp.Or(ev.Cwd, ev.ProjectDir), p) {
			return true
		}
	}
	return false
}

// proseExt are the extensions of documents, whose changes no test covers.
var proseExt = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{".md": true, ".mdx": true, ".markdown": true, ".txt": true, ".rst": true, ".adoc": true}
}}

// sourcePath reports whether p (absolute, or relative to cwd) is inside
// root, outside git's and atreides's own directories, and not a document.
func sourcePath(root, cwd, p string) bool {
	rel, ok := project.Rel(root, cwd, p)
	if !ok {
		return false
	}
	top, _, _ := strings.Cut(rel, "/")
	return top != ".git" && top != ".atreides" && !proseExt.Get()[strings.ToLower(filepath.Ext(p))]
}

// VerifyGate holds back a stop once when source files changed since the
// last test, build or lint run, asking the agent to verify first or say
// why it cannot. It is loop-safe: it blocks once per batch of changes (a
// verification starts a new batch), so the stop that follows its block
// (stop_hook_active) is always let through. It lets a stop through
//
//   - inside a subagent (its parent verifies the whole);
//   - when the stop gate already blocked this stop (open todos come
//     first; one block per stop, and the nudge waits for a later stop);
//   - after the user interrupted (until the next prompt, and from the
//     transcript), or when the agent's last message asks the user a
//     question;
//   - when context.work.verify_before_stop is off.
//
// Options are asked for only when a nudge is due.
func VerifyGate(opts OptionsFunc) engine.Handler {
	return VerifyGateWith(opts, transcriptInterrupted)
}

// verifyGateKinds are the events VerifyGateWith's handler runs on: a hook
// builds it for those alone.
var verifyGateKinds = []event.Kind{event.Stop}

// VerifyGateWith is VerifyGate with the transcript check swapped, for
// tests.
func VerifyGateWith(opts OptionsFunc, interrupted func(path string) bool) engine.Handler {
	return engine.Handler{
		Name: "verify-gate", Priority: engine.Normal,
		Kinds:  verifyGateKinds,
		Groups: WorkKey.Group() | StopKey.Group(),
		Handle: func(c *engine.Call) (event.Result, error) {
			return verifyGate(c, opts, interrupted), nil
		},
	}
}

func verifyGate(c *engine.Call, opts OptionsFunc, interrupted func(string) bool) event.Result {
	ev, s := c.Event, c.State.Session
	w := WorkKey.Of(s)
	switch {
	case ev.InSubagent(), w.Changes == 0, w.Nudged, c.Decision.Block:
		return event.Result{}
	case StopKey.Of(s).Interrupted, asksUser(ev.LastMessage):
		return event.Result{}
	case !opts().VerifyBeforeStop:
		return event.Result{}
	}
	if path := cmp.Or(ev.TranscriptPath, s.Transcript); path != "" && interrupted(path) {
		return event.Result{}
	}
	w.Nudged = true
	return event.Result{Block: true, BlockReason: verifyReason(w)}
}

func verifyReason(w *Work) string {
	what := w.First
	if w.Changes > 1 {
		what += fmt.Sprintf(" and %d more change(s)", w.Changes-1)
	}
	return "atreides: files changed since the last test, build or lint run (" + what + "). " +
		"Before you finish, run the project's tests, build or linters that cover them and fix what fails, " +
		"or say in one line why they cannot or need not be run; then stop. (asked once for these changes)"
}
