package guard

import (
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Limits that bound the analysis of a parsed script; the limits on what
// is parsed at all are the shell model's (shell.Parse).
const (
	// deadlineEvery is how many units of work pass between two looks at
	// the clock.
	deadlineEvery = 64
	// workFloor and workPerByte make a command's work budget: workFloor
	// units plus workPerByte per byte of the request's text. A unit is
	// about a microsecond of analysis on a slow machine: a statement or
	// word part examined, workBytes bytes of text expanded, parsed or
	// scanned, a path resolved. Because the budget grows with the text,
	// a command whose analysis is linear is always followed to its end
	// (a deny in the last statement of a 128 KiB list is found and
	// reported with its own rule); only work that multiplies runs out
	// (loops, function calls and expansions of expansions).
	workFloor   = 50000
	workPerByte = 3
	workBytes   = 16
)

// work is what one request may still spend; the analyzers started for
// parts of a command (a wrapper's arguments, heredoc text) share it.
type work struct {
	spent, budget int
	clockAt       int // spent at the next look at the clock
	// derivedMax bounds the words of derived commands: maxDerivedWords,
	// or more for a long text, whose string literals a large inline
	// program hands to the shell analysis one by one.
	derivedMax int
	// scripts are the script files being judged, outermost first, and
	// scriptReads the files read so far (scripts.go).
	scripts     []string
	scriptReads int
	capped      string // why scripts went past the bounds, until reported
}

func newWork(textLen int) *work {
	return &work{budget: workFloor + workPerByte*textLen, clockAt: deadlineEvery, derivedMax: max(maxDerivedWords, textLen/4)}
}

// newAnalyzer starts the analysis of r, whose text is textLen bytes long.
// r is the caller's copy: its Resolve is replaced by a memo that charges
// the work budget.
func newAnalyzer(p *Policy, r *Request, textLen int) *analyzer {
	a := &analyzer{p: p, req: r, work: newWork(textLen), paths: &pathMemo{}, res: Result{Verdict: Allow}}
	if r.Resolve != nil {
		r.Resolve = a.files().memoResolve(r.Resolve)
	}
	a.paths.names = shell.NewPaths(r.Home, r.Resolve, r.Readlink)
	return a
}

// sub is an analyzer for a part of a's command that judges on its own
// (its verdict is weighed by a), spending a's budget.
func (a *analyzer) sub() *analyzer {
	return &analyzer{p: a.p, req: a.req, work: a.work, paths: a.paths, selfSt: a.selfSt.inherited(), res: Result{Verdict: Allow}}
}

// spend charges n units of work. Once the budget or the request's
// deadline is spent, the analysis stops and the verdict is at least
// parse.too-complex, a deny: a rule that already denied keeps its own id
// and reason (fireRule never lets a finding replace an equal one), and
// nothing found so far is weakened.
func (a *analyzer) spend(n int) bool {
	w := a.work
	w.spent += n
	if a.stop {
		return false
	}
	if w.spent > w.budget || a.overDeadline() {
		a.stop = true
		detail := "the analysis ran out of time"
		if w.spent > w.budget {
			detail = fmt.Sprintf("the analysis needs more than the %d units of work a command of this size may take", w.budget)
		}
		a.fire(ruleParseTooComplex, nil, detail)
		a.writes().unknownWrite("the command is too large to follow", false, "")
		return false
	}
	return true
}

// spendText charges the work of handling text: expanding, parsing or
// scanning it.
func (a *analyzer) spendText(n int) bool { return a.spend(n / workBytes) }

// overDeadline reports, every deadlineEvery units of work, whether the
// request's deadline has passed.
func (a *analyzer) overDeadline() bool {
	w, d := a.work, a.req.Deadline
	if d.IsZero() || w.spent < w.clockAt {
		return false
	}
	w.clockAt = w.spent + deadlineEvery
	return time.Now().After(d)
}
