package hook

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/project"
)

// exitProcess ends the process when the watchdog has answered.
var exitProcess = os.Exit

// hookRun is one hook process's answer in the making, shared by the
// normal path and the watchdog: whichever answers first answers alone.
type hookRun struct {
	proc    *Process
	adapter host.Adapter
	until   time.Time // when the budget ends

	// overran is closed after the watchdog answered and exitProcess
	// returned (only in tests: in a real process it does not return).
	overran chan struct{}

	mu        sync.Mutex
	answered  bool
	data      []byte // stdin as read so far
	hostEvent string // the event's name, once known
	flagEvent string // --event: the event the host registered the hook for
	ev        *event.Event
	log       *project.Log
	unsaved   *unsavedState // the event's state, while neither saved nor queued
}

// unsavedState is an event's state that the hook has neither saved nor
// queued yet, in a store that remembers event ids (the team's): id is the
// event's, root its project's. If the watchdog must end the process first,
// it queues the event in the outbox under id; the replay skips it if the
// hook's COMMIT was made after all, so it is never applied twice. The
// embedded store keeps no ids, and a transaction the exit interrupts may
// still commit, so its event is not queued: the watchdog's line in the
// log is all there is.
type unsavedState struct{ root, id string }

// stateDue records that the event's state, under id in the store of the
// project at root, is neither saved nor queued yet. r is nil for a
// server's request, which no watchdog answers.
func (r *hookRun) stateDue(root, id string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unsaved = &unsavedState{root: root, id: id}
}

// stateSettled records that the event's state was saved, queued, or
// dropped with a line in the log: the watchdog leaves it alone.
func (r *hookRun) stateSettled() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unsaved = nil
}

// errOverBudget is what the watchdog tells the host.
var errOverBudget = errors.New("atreides did not finish within its time budget")

// hookBudget is the budget from ATREIDES_HOOK_BUDGET, else def (see
// budgetFor). A value that does not parse or is not positive is ignored:
// the default is the safe choice and a hook must not fail over its own
// knob.
func hookBudget(getenv func(string) string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(getenv("ATREIDES_HOOK_BUDGET")); err == nil && d > 0 {
		return d
	}
	return def
}

// watchdogGrace is how long the watchdog's own writes (its line in the
// log, the event's state queued, the audit line) may take after its
// answer before the process ends: the log may be what hangs, but on a
// loaded machine a write takes more than a moment. budgetFor leaves at
// least a quarter of the budget under the host's timeout; this takes at
// most half of that.
func watchdogGrace(budget time.Duration) time.Duration {
	return max(100*time.Millisecond, budget/8)
}

// watch starts the watchdog; the returned function stops it.
func (r *hookRun) watch(budget time.Duration) (stop func()) {
	t := time.AfterFunc(budget, func() { r.overrun(budget) })
	return func() { t.Stop() }
}

// overrun answers for a hook still working when its budget ends: a
// tool call is blocked (security fails closed), any other event gets no
// decision. An event whose state was neither saved nor queued is queued
// in the outbox (see unsavedState). The process then exits; the normal
// path can no longer write because the watchdog keeps the lock.
func (r *hookRun) overrun(budget time.Duration) {
	r.mu.Lock()
	if r.answered {
		r.mu.Unlock()
		return
	}
	r.answered = true
	ans, d := r.deadlineAnswer(budget)
	writeAnswer(r.proc, ans)
	if log := r.log; log != nil {
		// The log may be what hangs: give it a moment, not the process.
		msg := fmt.Sprintf("hook %s: %s answered by the watchdog after %v: %v", r.adapter.Name(), orUnknown(r.eventLocked()), budget, errOverBudget)
		ev, unsaved := r.ev, r.unsaved
		logged := make(chan struct{})
		go func() {
			log.Logf("%s", msg)
			if unsaved != nil {
				answered := d
				if answered == nil {
					answered = &event.Decision{}
				}
				queueEvent(unsaved.root, ev, answered, unsaved.id, false, nil, errOverBudget, log)
			}
			if d != nil {
				recordDecision(ev.ProjectDir, r.proc.settings(ev.ProjectDir), log, ev, d, budget)
			}
			close(logged)
		}()
		select {
		case <-logged:
		case <-time.After(watchdogGrace(budget)):
		}
	}
	exitProcess(ans.Exit)
	close(r.overran)
}

// deadlineAnswer is the watchdog's answer, and the decision it stands for
// when the event was read (for the audit trail; nil otherwise); r.mu is
// held.
func (r *hookRun) deadlineAnswer(budget time.Duration) (host.Answer, *event.Decision) {
	ev := r.ev
	if ev == nil {
		return r.adapter.Unreadable(r.eventLocked(), fmt.Errorf("%w (%v)", errOverBudget, budget)), nil
	}
	if ev.Kind != event.PreTool && ev.Kind != event.PermissionRequest {
		return host.Answer{}, nil
	}
	d := &event.Decision{
		Verdict: event.Deny, Rule: "atreides.deadline",
		Reason: fmt.Sprintf("atreides could not finish checking this call within %v, so it is blocked. Retry it, or split a very large command; if it keeps happening, ask the user to run `atreides doctor`.", budget),
	}
	return r.adapter.Encode(ev, d), d
}

// answer writes the normal path's answer unless the watchdog has; it
// reports whether it wrote.
func (r *hookRun) answer(ans host.Answer) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.answered {
		return false
	}
	r.answered = true
	writeAnswer(r.proc, ans)
	return true
}

func writeAnswer(p *Process, ans host.Answer) {
	if len(ans.Stdout) > 0 {
		p.Out.Write(ans.Stdout)
	}
	if ans.Stderr != "" {
		fmt.Fprintln(p.Err, ans.Stderr)
	}
}

// read reads stdin, at most max bytes (more is an error, not a silent
// cut), keeping what arrived where the watchdog can look for the event's
// name if the host never finishes writing.
func (r *hookRun) read(max int) ([]byte, error) {
	// Read into the bytes the watchdog sees rather than a buffer copied
	// there: a payload is a few KB and fits the first 8; a larger one
	// grows them. The watchdog reads only what was published under the
	// lock, never the spare room a read is filling.
	data := make([]byte, 0, 8<<10)
	for {
		if len(data) == cap(data) {
			data = slices.Grow(data, len(data))
		}
		n, err := r.proc.In.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		r.mu.Lock()
		r.data = data
		r.mu.Unlock()
		if len(data) > max {
			return data[:max], fmt.Errorf("stdin is larger than %d bytes", max)
		}
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return data, fmt.Errorf("read stdin: %w", err)
		}
	}
}

// decoded records the event once decoded, and where to log.
func (r *hookRun) decoded(ev *event.Event, log *project.Log) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev.HostEvent != "" {
		r.hostEvent = ev.HostEvent
	}
	if ev.Kind != event.Unknown {
		r.ev = ev
	}
	r.log = log
}

// event is the host's name of the event, from the payload, the bytes
// read so far or --event; "" when unknown.
func (r *hookRun) event() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.eventLocked()
}

func (r *hookRun) eventLocked() string {
	if r.hostEvent == "" {
		r.hostEvent = host.SniffEventName(r.data)
	}
	return r.hostEvent
}
