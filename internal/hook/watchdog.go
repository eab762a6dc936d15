package hook

import (
	"errors"
	"fmt"
	"io"
	"os"
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
	ev        *event.Event
	log       *project.Log
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

// watch starts the watchdog; the returned function stops it.
func (r *hookRun) watch(budget time.Duration) (stop func()) {
	t := time.AfterFunc(budget, func() { r.overrun(budget) })
	return func() { t.Stop() }
}

// overrun answers for a hook still working when its budget ends: a
// tool call is blocked (security fails closed), any other event gets no
// decision. The process then exits; the normal path can no longer write
// because the watchdog keeps the lock.
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
		ev := r.ev
		logged := make(chan struct{})
		go func() {
			log.Logf("%s", msg)
			if d != nil {
				recordDecision(ev.ProjectDir, r.proc.settings(ev.ProjectDir), log, ev, d, budget)
			}
			close(logged)
		}()
		select {
		case <-logged:
		case <-time.After(100 * time.Millisecond):
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
	buf := make([]byte, 8<<10) // a payload is a few KB; larger ones take more reads
	for {
		n, err := r.proc.In.Read(buf)
		r.mu.Lock()
		r.data = append(r.data, buf[:n]...)
		data := r.data
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
