package doctor

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/internal/state"
)

// Settings files that name atreides prove nothing about whether the host
// runs the hooks: the field's most reported failure is "doctor said ok
// and git reset --hard ran". What does prove it is an event that reached
// atreides. Two records say so, both only read here (nothing is created):
// the audit trail, which has a line with its time for every tool call the
// guard judges and every session start, end, compaction and subagent, but
// for prompts, post-tool and stop events only when atreides decided
// something on them; and the sessions' state, whose counters have every
// prompt and tool call, with the time of each session's last event.

// EventSeen is when one of a host's events last reached atreides as the
// audit trail records it; Last is "" when the trail has none.
type EventSeen struct {
	Event string `json:"event"`
	Last  string `json:"last"` // RFC 3339, UTC
}

// trailSeen is what the trail and the state say of the hooks that fired.
type trailSeen struct {
	last     map[string]map[string]time.Time // host → host event → last time
	sessions []sessionSeen
}

// sessionSeen is one session's counters (state.Counters).
type sessionSeen struct {
	host, id       string
	prompts, tools int
	last           time.Time
}

// readTrail reads the project's audit trail; an unreadable one is no
// news (the log check reports the state directory's problems).
func readTrail(root string) *trailSeen {
	ts := &trailSeen{last: map[string]map[string]time.Time{}}
	if root == "" {
		return ts
	}
	// Rows, as 'atreides log' reads them: the fields scanned from each
	// line, not every record decoded in full a second time.
	tr := audit.New(project.StateDir(root), nil)
	_, _ = tr.ReadRows(audit.Filter{}, func(r *audit.Row) error {
		ts.add(r)
		return nil
	})
	ts.sessions = readSessions(root)
	return ts
}

func (ts *trailSeen) add(r *audit.Row) {
	t := r.Time // zero when the record's time does not parse
	if t.IsZero() || r.Host == "" || r.HostEvent == "" {
		return
	}
	if ts.last[r.Host] == nil {
		ts.last[r.Host] = map[string]time.Time{}
	}
	if t.After(ts.last[r.Host][r.HostEvent]) {
		ts.last[r.Host][r.HostEvent] = t
	}
}

// seenChecks are the hooks-fired lines of the hosts whose hooks are
// installed, with each host's events filled in for --json.
func seenChecks(hosts []Host, ts *trailSeen, now time.Time) []Check {
	var out []Check
	for i := range hosts {
		h := &hosts[i]
		installed := installedEvents(h)
		if len(installed) == 0 {
			continue
		}
		h.LastSeen = eventsSeen(installed, ts.last[h.Name])
		out = append(out, firedCheck(h, lastEvent(h.Name, ts.sessions), now))
		out = append(out, silentTools(h.Name, ts.sessions)...)
	}
	return out
}

// installedEvents are the host events atreides's hooks are registered
// for in any of the host's files, in the order of the files.
func installedEvents(h *Host) []string {
	var evs []string
	for _, st := range h.Files {
		for _, e := range st.Events {
			if !slices.Contains(evs, e) {
				evs = append(evs, e)
			}
		}
	}
	return evs
}

// eventsSeen are the installed events with their last time, then any
// other event the trail has of the host (a name the install does not
// list, such as one of an older version).
func eventsSeen(installed []string, last map[string]time.Time) []EventSeen {
	out := make([]EventSeen, 0, len(installed))
	stamp := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	for _, e := range installed {
		out = append(out, EventSeen{e, stamp(last[e])})
	}
	var extra []string
	for e := range last {
		if e != "" && !slices.Contains(installed, e) {
			extra = append(extra, e)
		}
	}
	slices.Sort(extra)
	for _, e := range extra {
		out = append(out, EventSeen{e, stamp(last[e])})
	}
	return out
}

// lastEvent is the time of the host's latest event of any kind, from
// the sessions' state; zero when it has none.
func lastEvent(hostName string, sessions []sessionSeen) time.Time {
	var last time.Time
	for _, s := range sessions {
		if s.host == hostName && s.last.After(last) {
			last = s.last
		}
	}
	return last
}

// firedCheck is one line: each event with how long ago the trail last
// had it, and when the host's last event of any kind arrived.
func firedCheck(h *Host, last time.Time, now time.Time) Check {
	var parts, none []string
	for _, e := range h.LastSeen {
		if t, err := time.Parse(time.RFC3339, e.Last); err == nil {
			parts = append(parts, e.Event+" "+agoText(now.Sub(t)))
		} else {
			none = append(none, e.Event)
		}
	}
	name := h.Name + " last seen"
	if len(parts) == 0 && last.IsZero() {
		return Check{Name: name, Status: "note", Detail: "no event has reached atreides from " + h.Display + " in this project yet: start a session; if this stays so, " + h.Display + " is not running the hooks"}
	}
	var detail []string
	if !last.IsZero() {
		detail = append(detail, "last event "+agoText(now.Sub(last)))
	}
	if len(parts) > 0 {
		detail = append(detail, strings.Join(parts, ", "))
	}
	if len(none) > 0 {
		detail = append(detail, "not in the audit trail: "+strings.Join(none, ", "))
	}
	return Check{Name: name, Status: "ok", Detail: strings.Join(detail, "; ")}
}

// silentTools warns of a session whose prompts reached atreides but none
// of whose tool calls did: the tool hooks may not be firing. A session
// of questions alone looks the same, so it is a problem only when no
// session of the host ever had a tool call reach atreides and this one
// had several prompts; the most recent such session is named.
func silentTools(hostName string, sessions []sessionSeen) []Check {
	var worst *sessionSeen
	anyTools := false
	for i := range sessions {
		s := &sessions[i]
		if s.host != hostName {
			continue
		}
		anyTools = anyTools || s.tools > 0
		if s.prompts > 0 && s.tools == 0 && (worst == nil || s.last.After(worst.last)) {
			worst = s
		}
	}
	if worst == nil {
		return nil
	}
	status := "note"
	if !anyTools && worst.prompts >= 3 {
		status = "problem"
	}
	id := state.ShortID(worst.id, 0)
	return []Check{{Name: hostName + " tool hooks", Status: status, Detail: fmt.Sprintf("session %s (last event %s) had %d prompt(s) but no tool call reached atreides: if the agent ran tools in it, they were not checked; run a harmless command in a session and look for it in 'atreides log'",
		id, worst.last.Local().Format(time.DateTime), worst.prompts)}}
}

// agoText is a duration as people say it: 40s, 5m, 3h, 2d ago; past a
// minute in the words the anchors are dated in (session.Age), counting
// seconds below it where Age says "just now": a hook that fired seconds
// ago is the news doctor gives.
func agoText(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds ago", max(0, int(d.Seconds())))
	}
	return session.Age(d)
}
