package tasks

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/atreides-dev/atreides/internal/lazy"

	"github.com/atreides-dev/atreides/internal/sanitize"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// The error log's rules: what an error is (a type and a normalized
// cause), how a recurrence is folded into its entry, and the fix cycle
// none → planned (a fix task exists) → fixed (it completed, or a fix was
// recorded by hand) → recurred (seen again after the fix), which is how
// "did the fix hold" is answered.

// The fix statuses of an error; "" is open (no fix yet).
const (
	FixPlanned  = "planned"
	FixFixed    = "fixed"
	FixRecurred = "recurred"
)

// Severities are the severities, worst first. They are the priorities'
// words on purpose: a fix task's priority is its worst error's severity.
var Severities = Priorities

// errorTypes are the known error types with their default severity: the
// seed's list, then the strike counter's classes (internal/session's
// errorClasses, hyphens as underscores; timeout and file_not_found are in
// both). A test keeps the strike classes here.
var errorTypes = []struct{ name, severity string }{
	{"delegation_hang", "high"},
	{"tool_failure", "medium"},
	{"status_sync_failure", "high"},
	{"build_error", "high"},
	{"git_commit_failure", "medium"},
	{"timeout", "medium"},
	{"validation_failed", "medium"},
	{"file_not_found", "low"},
	{"cycle_detected", "high"},
	{"max_depth_exceeded", "medium"},
	// The 3-strike classes.
	{"edit_mismatch", "low"},
	{"merge_conflict", "high"},
	{"lock_contention", "medium"},
	{"disk_full", "critical"},
	{"out_of_memory", "high"},
	{"network", "medium"},
	{"auth", "high"},
	{"port_in_use", "low"},
	{"command_not_found", "medium"},
	{"permission_denied", "medium"},
	{"module_not_found", "medium"},
	{"dependency", "medium"},
	{"test_failure", "medium"},
	{"syntax_error", "medium"},
	{"type_error", "medium"},
	{"compile_error", "high"},
	{"lint_failure", "low"},
	{"runtime_panic", "high"},
	{"usage", "low"},
	{"git", "medium"},
	{"exit_code", "medium"},
	{"failed", "medium"},
}

// ErrorTypes are the known error types, in the order above.
func ErrorTypes() []string {
	out := make([]string, len(errorTypes))
	for i, t := range errorTypes {
		out[i] = t.name
	}
	return out
}

// ErrorType is the type an error is recorded under: lower case, hyphens
// as underscores, so the strike counter's "file-not-found" and the seed's
// "file_not_found" are one type. An unknown type is kept as it is (an
// error is never lost for its name); KnownErrorType tells them apart.
func ErrorType(t string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(t)), "-", "_")
}

// KnownErrorType reports whether t names a known type.
func KnownErrorType(t string) bool { return defaultSeverity(ErrorType(t)) != "" }

func defaultSeverity(t string) string {
	for _, e := range errorTypes {
		if e.name == t {
			return e.severity
		}
	}
	return ""
}

// Severity is the severity an error of type t is recorded with: the
// given one when it is valid, else the type's default, else medium.
func Severity(t, given string) string {
	if slices.Contains(Severities, given) {
		return given
	}
	return cmp.Or(defaultSeverity(ErrorType(t)), "medium")
}

// MaxErrors bounds the error log so that the board (loaded by every
// command and the rare hooks) stays small: 200 distinct type-and-cause
// entries is months of a project's failures; an entry that recurs stays
// one entry however often it recurs.
const MaxErrors = 200

// Limits on what one entry keeps: a cause must stay short to group, a
// message only has to remind what happened.
const (
	maxCause   = 160
	maxMessage = 500
)

// Record adds an error to the log at now: an error of the same type and
// cause as an entry recurs in place (its count, last seen, latest message
// and context; a worse severity wins), else it is a new entry with the
// next number. An entry fixed before the error happened becomes
// "recurred". Everything kept is sanitized, so no secret lands in the
// board or errors.json. It returns the entry.
func Record(b *taskboard.Tasks, ev ErrorEvent, ctx taskboard.TaskErrorContext, now time.Time) *taskboard.TaskError {
	typ := ErrorType(ev.Type)
	if typ == "" {
		typ = "tool_failure"
	}
	cause := NormalizeCause(cmp.Or(ev.Cause, ev.Message))
	when := ev.Time
	if when.IsZero() {
		when = now
	}
	ctx.Command = sanitize.Command(cmp.Or(ctx.Command, ev.Command))
	ctx.Agent = sanitize.String(cmp.Or(ctx.Agent, ev.Agent), 100)
	ctx.Session = sanitize.String(ctx.Session, 100)
	msg := sanitize.String(strings.TrimSpace(ev.Message), maxMessage)
	sev := Severity(typ, ev.Severity)
	if e := findError(b, typ, cause); e != nil {
		e.Count++
		if when.After(e.Last) {
			e.Last, e.Message, e.Context = when, msg, ctx
		}
		if severityRank(sev) < severityRank(e.Severity) {
			e.Severity = sev
		}
		if (e.Fix == FixFixed || e.Fix == FixRecurred) && when.After(e.Fixed) {
			e.Fix = FixRecurred
			e.Recurred++
		}
		return e
	}
	b.NextError = max(b.NextError, 1)
	b.Errors = append(b.Errors, taskboard.TaskError{
		Number: b.NextError, Type: typ, Severity: sev, Cause: cause, Message: msg, Context: ctx,
		First: when, Last: when, Count: 1,
	})
	b.NextError++
	n := b.Errors[len(b.Errors)-1].Number
	boundErrors(b)
	return b.Error(n)
}

func findError(b *taskboard.Tasks, typ, cause string) *taskboard.TaskError {
	for i := range b.Errors {
		if e := &b.Errors[i]; e.Type == typ && e.Cause == cause {
			return e
		}
	}
	return nil
}

func severityRank(s string) int { return priorityRank(s) }

// boundErrors keeps the MaxErrors most recently seen entries; an entry
// with a fix in progress goes last, so that its fix task keeps its link.
func boundErrors(b *taskboard.Tasks) {
	for len(b.Errors) > MaxErrors {
		drop := -1
		for i, e := range b.Errors {
			if drop < 0 || evictBefore(e, b.Errors[drop]) {
				drop = i
			}
		}
		b.Errors = slices.Delete(b.Errors, drop, drop+1)
	}
}

func evictBefore(x, y taskboard.TaskError) bool {
	if px, py := x.Fix == FixPlanned, y.Fix == FixPlanned; px != py {
		return py
	}
	return x.Last.Before(y.Last)
}

// causePatterns collapse what differs between two occurrences of one
// error: temporary paths, ids, numbers. Compiled on first use: only the
// commands and the rare hooks that record errors need them.
var causePatterns = lazy.Value[[4]*regexp.Regexp]{New: func() [4]*regexp.Regexp {
	return [4]*regexp.Regexp{
		regexp.MustCompile(`(?:/private)?(?:/tmp|/var/folders|/var/tmp)(?:/[^\s'"` + "`" + `:;,()]*)?`),
		regexp.MustCompile(`(?i)\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b|\b(?:0x)?[0-9a-f]{7,}\b|\b\w{16,}\b`),
		regexp.MustCompile(`[0-9]+`),
		regexp.MustCompile(`\s+`),
	}
}}

// NormalizeCause is the form of a cause that groups recurrences: secrets
// masked, temporary paths, hexadecimal ids and numbers collapsed,
// whitespace folded, at most maxCause bytes.
func NormalizeCause(s string) string {
	s = sanitize.String(strings.TrimSpace(s), 0)
	re := causePatterns.Get()
	s = re[0].ReplaceAllString(s, "<tmp>")
	s = re[1].ReplaceAllStringFunc(s, func(id string) string {
		// A word like "defaced" is all hex letters, and a long
		// identifier has no digit: only a token with digits is an id.
		if strings.ContainsAny(id, "0123456789") {
			return "<id>"
		}
		return id
	})
	s = re[2].ReplaceAllString(s, "N")
	s = re[3].ReplaceAllString(s, " ")
	return shortCause(strings.TrimSpace(s), maxCause)
}

// DrainOutbox records the session's outbox on the board and empties it;
// each error's context names the session and, when the session (or the
// agent in it) has a task claimed, that task. It returns how many errors
// it recorded.
func DrainOutbox(b *taskboard.Tasks, s *state.Session, now time.Time) int {
	n := len(*OutboxKey.Of(s))
	for _, ev := range *OutboxKey.Of(s) {
		ctx := taskboard.TaskErrorContext{Session: s.ID}
		if ts := Claimed(b, s.ID, ev.Agent); len(ts) > 0 {
			ctx.Task = ts[0].Number
		}
		Record(b, ev, ctx, now)
	}
	*OutboxKey.Of(s) = nil
	return n
}

// PlanFix creates a task to fix the errors with the numbers, linked both
// ways: the task lists them, each error names the task in its fix
// references and is "planned". Its priority is the worst severity among
// them. An error whose fix task is still open is refused.
func PlanFix(b *taskboard.Tasks, numbers []int, now time.Time) (*taskboard.Task, error) {
	if len(numbers) == 0 {
		return nil, fmt.Errorf("no error to plan a fix for")
	}
	numbers = slices.Compact(slices.Sorted(slices.Values(numbers)))
	errs := make([]*taskboard.TaskError, len(numbers))
	for i, n := range numbers {
		e := b.Error(n)
		if e == nil {
			return nil, fmt.Errorf("error %d does not exist", n)
		}
		if t := openFixTask(b, n); t != nil {
			return nil, fmt.Errorf("error %d already has fix task %d (%s)", n, t.Number, t.Status)
		}
		errs[i] = e
	}
	t, err := Add(b, NewTask{Title: fixTitle(errs), Description: fixDescription(errs), Priority: worstSeverity(errs)}, now)
	if err != nil {
		return nil, err
	}
	t.Errors = numbers
	for _, e := range errs {
		e.Fix = FixPlanned
		e.FixRefs = appendRef(e.FixRefs, fmt.Sprintf("task %d", t.Number))
	}
	return t, nil
}

// openFixTask is the open task that fixes error n, if any.
func openFixTask(b *taskboard.Tasks, n int) *taskboard.Task {
	for i := range b.List {
		if t := &b.List[i]; !Closed(t.Status) && slices.Contains(t.Errors, n) {
			return t
		}
	}
	return nil
}

func fixTitle(errs []*taskboard.TaskError) string {
	if len(errs) == 1 {
		e := errs[0]
		return fmt.Sprintf("Fix %s: %s", e.Type, shortCause(e.Cause, 80))
	}
	var types []string
	for _, e := range errs {
		if !slices.Contains(types, e.Type) {
			types = append(types, e.Type)
		}
	}
	return fmt.Sprintf("Fix %d errors: %s", len(errs), strings.Join(types, ", "))
}

func fixDescription(errs []*taskboard.TaskError) string {
	var d strings.Builder
	d.WriteString("Fix the cause of these recorded errors (atreides errors), so that they do not recur:\n")
	for _, e := range errs {
		fmt.Fprintf(&d, "- error %d, %s (%s), seen %d times, last %s: %s", e.Number, e.Type, e.Severity, e.Count, e.Last.UTC().Format(time.DateOnly), e.Cause)
		if e.Message != "" && e.Message != e.Cause {
			fmt.Fprintf(&d, "\n  latest message: %s", shortCause(e.Message, 200))
		}
		d.WriteByte('\n')
	}
	return d.String()
}

func shortCause(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func worstSeverity(errs []*taskboard.TaskError) string {
	worst := Severities[len(Severities)-1]
	for _, e := range errs {
		if severityRank(e.Severity) < severityRank(worst) {
			worst = e.Severity
		}
	}
	return worst
}

func appendRef(refs []string, ref string) []string {
	if slices.Contains(refs, ref) {
		return refs
	}
	return append(refs, ref)
}

// settleFixes follows task t's move to a closed status in its errors: a
// completed fix task fixes them; an abandoned one leaves them unplanned
// again (recurred if they had recurred before).
func settleFixes(b *taskboard.Tasks, t *taskboard.Task, now time.Time) {
	for _, n := range t.Errors {
		e := b.Error(n)
		if e == nil || e.Fix != FixPlanned {
			continue
		}
		switch t.Status {
		case Completed:
			markFixed(e, now)
		case Abandoned:
			e.Fix = ""
			if e.Recurred > 0 {
				e.Fix = FixRecurred
			}
		}
	}
}

// markFixed records a fix at now; the recurrence count starts afresh, as
// it says whether this fix held.
func markFixed(e *taskboard.TaskError, now time.Time) {
	e.Fix, e.Fixed, e.Recurred = FixFixed, now, 0
}

// ResolveError records a fix of error n made outside a fix task (a
// commit, a configuration change); ref says what it was.
func ResolveError(b *taskboard.Tasks, n int, ref string, now time.Time) (*taskboard.TaskError, error) {
	e := b.Error(n)
	if e == nil {
		return nil, fmt.Errorf("error %d does not exist", n)
	}
	ref = sanitize.String(strings.TrimSpace(ref), 200)
	if ref == "" {
		return nil, fmt.Errorf("resolving error %d needs a reference to the fix (a commit or a few words)", n)
	}
	markFixed(e, now)
	e.FixRefs = appendRef(e.FixRefs, ref)
	return e, nil
}

// FixState says in words where an error's fix stands: open, planned,
// held since when, or how often it recurred after the fix.
func FixState(e *taskboard.TaskError) string {
	switch e.Fix {
	case FixPlanned:
		return "fix planned (" + strings.Join(e.FixRefs, ", ") + ")"
	case FixFixed:
		return "fixed, held since " + e.Fixed.UTC().Format(time.DateOnly)
	case FixRecurred:
		if e.Recurred == 1 {
			return "recurred once after the fix"
		}
		return fmt.Sprintf("recurred %d times after the fix", e.Recurred)
	}
	return "open"
}

// ErrorsByType orders errors for reading: by type, then cause.
func ErrorsByType(errs []taskboard.TaskError) []taskboard.TaskError {
	out := slices.Clone(errs)
	slices.SortStableFunc(out, func(x, y taskboard.TaskError) int {
		return cmp.Or(cmp.Compare(x.Type, y.Type), cmp.Compare(x.Cause, y.Cause))
	})
	return out
}

// DrainOutboxes records every session's outbox on the board in one
// transaction, so that the errors of a session that never reached a Stop
// (killed, or still working) are not left waiting; it returns how many
// it recorded. The board is written only when there were some.
func (r *Repo) DrainOutboxes(ctx context.Context) (int, error) {
	var n int
	err := r.Store.Update(ctx, func(tx *store.Tx) error {
		n = 0
		var full []*state.Session
		// A damaged session record is reported by status and doctor;
		// here it only has nothing to drain.
		if _, err := state.Sessions(tx, func(s *state.Session) error {
			if len(*OutboxKey.Of(s)) > 0 {
				full = append(full, s)
			}
			return nil
		}); err != nil || len(full) == 0 {
			return err
		}
		return state.UpdateProject(tx, func(p *state.Project) error {
			now := r.Now().UTC()
			for _, s := range full {
				n += DrainOutbox(taskboard.Key.Of(p), s, now)
				if err := state.SaveSession(tx, s); err != nil {
					return err
				}
			}
			r.WriteFiles(taskboard.Key.Of(p), now)
			return nil
		})
	})
	return n, err
}
