package export

import (
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/view"
)

// AbandonedAfter is how long a session that has not ended may go without
// an event before the export calls it abandoned: hosts that crash or are
// killed never send SessionEnd, and a day is longer than any one sitting.
const AbandonedAfter = 24 * time.Hour

// The validation's issue codes (docs/export.md lists them).
const (
	CodeNotEnded         = "session_not_ended"
	CodeAbandoned        = "session_abandoned"
	CodeOpenTodos        = "todos_open"
	CodeSubagents        = "subagents_running"
	CodeOverdue          = "subagents_overdue"
	CodeBgPending        = "background_pending"
	CodeBgFailed         = "background_failed"
	CodeStrikes          = "strikes_pending"
	CodeQuarantined      = "record_quarantined"
	CodeDamaged          = "record_damaged"
	CodeNotRecorded      = "session_not_recorded"
	CodeStaleAnchor      = "anchor_stale"
	CodeLedger           = "ledger_unverified"
	CodeNoTrail          = "trail_missing"
	CodeIntentsUnread    = "intents_unreadable"
	CodeExpiredLease     = "lease_expired"
	CodeOtherDamaged     = "other_record_damaged"
	CodeLedgerUnreadable = "ledger_unreadable"
)

// Validate judges the document: the session is complete when nothing of
// severity error (the document is not whole or not to be trusted) or
// warning (the session's work is unfinished) is found.
func Validate(d *view.Document, s *view.Snapshot, now time.Time) view.Validation {
	v := view.Validation{Issues: []view.Issue{}, TrailRecords: len(d.Decisions)}
	add := func(code, sev, format string, args ...any) {
		v.Issues = append(v.Issues, view.Issue{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...)})
	}
	if !d.Session.Updated.IsZero() {
		v.HoursSinceActivity = view.Hours(now.Sub(d.Session.Updated))
	}
	records(d, s, add)
	lifecycle(d, v.HoursSinceActivity, add)
	work(d, add)
	if d.Ledger.Error != "" {
		add(CodeLedgerUnreadable, Error, "the trace ledger could not be read: %s", d.Ledger.Error)
	}
	if !d.Ledger.Verify.OK {
		add(CodeLedger, Error, "the trace ledger's chain does not verify, so its records cannot be trusted: %s", d.Ledger.Verify.Problem)
	}
	if d.Intents.Error != "" {
		add(CodeIntentsUnread, Warning, "the intents file could not be read: %s", d.Intents.Error)
	}
	if len(d.Decisions) == 0 {
		add(CodeNoTrail, Warning, "the audit trail has no record of this session (rotated out, deleted, or never written): tool calls and decisions are missing; this export is from the state records only")
	}
	v.Complete = true
	for _, is := range v.Issues {
		if is.Severity != Info {
			v.Complete = false
		}
	}
	return v
}

// Severities of an issue.
const (
	// Error: the document itself is incomplete or not to be trusted.
	Error = "error"
	// Warning: the session's work is unfinished.
	Warning = "warning"
	// Info: worth knowing; the session can still be complete.
	Info = "info"
)

type addFunc func(code, sev, format string, args ...any)

// records are issues with the store's records: what the document cannot
// tell because a record was lost.
func records(d *view.Document, s *view.Snapshot, add addFunc) {
	id := d.Session.ID
	if !d.Session.Recorded {
		add(CodeNotRecorded, Error, "the store holds no readable record of session %s: its phases, strikes, subagents and counters are unknown", id)
	}
	for _, q := range s.Quarantined {
		if q.Kind == "session" && q.Key == id {
			add(CodeQuarantined, Error, "the session's record was quarantined at %s (%s): its history before then is lost; what follows starts afresh from that moment", q.Time.UTC().Format(time.RFC3339), q.Reason)
		}
		if q.Kind == "project" {
			add(CodeQuarantined, Error, "the project record was quarantined at %s (%s); lost: %s", q.Time.UTC().Format(time.RFC3339), q.Reason, orNone(q.Lost))
		}
	}
	for _, e := range s.Damaged {
		switch {
		case e.Kind == "session" && e.Key != id, e.Kind == "tasks":
			add(CodeOtherDamaged, Info, "%v: not part of this session", e)
		default:
			add(CodeDamaged, Error, "%v: what it holds is missing from this export", e)
		}
	}
}

// lifecycle are issues with the session's end.
func lifecycle(d *view.Document, idle float64, add addFunc) {
	if d.Session.Ended || !d.Session.Recorded {
		return
	}
	add(CodeNotEnded, Warning, "the session has not ended (the host sent no SessionEnd)")
	if idle > AbandonedAfter.Hours() {
		add(CodeAbandoned, Warning, "no event for %.1f hours although the session has not ended: the host probably exited without saying so", idle)
	}
}

// work are issues with work the session left unfinished.
func work(d *view.Document, add addFunc) {
	if n := openTodos(d.Todos); n > 0 {
		add(CodeOpenTodos, Warning, "%d todo(s) still open", n)
	}
	for _, a := range d.Delegations {
		if a.Running {
			add(CodeSubagents, Warning, "subagent %s (%s) started %s is still running", a.ID, a.Type, a.Started.Format(time.RFC3339))
		}
		if a.Overdue {
			add(CodeOverdue, Warning, "subagent %s (%s) ran past its deadline %s", a.ID, a.Type, a.Deadline.Format(time.RFC3339))
		}
	}
	for _, b := range d.Background {
		switch {
		case b.Pending:
			add(CodeBgPending, Warning, "background task %s is still %s", b.ID, b.Status)
		case b.Status == "failed":
			add(CodeBgFailed, Warning, "background task %s failed: %s", b.ID, b.Error)
		}
	}
	for _, k := range d.Strikes {
		add(CodeStrikes, Warning, "%s on %q failed %d time(s) in a row, last %s (%s)", k.Tool, k.Target, k.Count, k.Last.Format(time.RFC3339), k.Class)
	}
	for _, a := range d.Anchors {
		if a.Stale {
			add(CodeStaleAnchor, Warning, "anchor %d (%s) is %.0f hours old and stale: check it still holds", a.ID, a.Kind, a.AgeHours)
		}
	}
	for _, l := range d.Intents.Leases {
		if l.Expired {
			add(CodeExpiredLease, Info, "the lease on intent %s expired at %s", l.Intent, l.Expires.Format(time.RFC3339))
		}
	}
}

func openTodos(t view.ExportTodos) int {
	n := 0
	for _, a := range t.Agent {
		if a.Open {
			n++
		}
	}
	var walk func([]view.TodoNode)
	walk = func(ns []view.TodoNode) {
		for _, t := range ns {
			if t.Open {
				n++
			}
			walk(t.Children)
		}
	}
	walk(t.Atreides)
	return n
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "nothing"
	}
	return strings.Join(s, ", ")
}
