package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/view"
)

// stateChecks are the state store's health and its quarantine: records
// that could not be decoded, kept aside when the session started afresh.
func stateChecks(root string) []Check {
	st := fleet.Open(root)
	var recovered string
	st.OnRecover = func(msg string) { recovered = msg }
	var out []Check
	if st.Remote() != nil {
		c := teamStoreCheck(root)
		if c.Status != "ok" {
			return []Check{c}
		}
		out = append(out, c)
	} else if _, err := os.Stat(st.Path()); errors.Is(err, os.ErrNotExist) {
		return []Check{{Name: "state store", Status: "ok", Detail: st.Path() + ": not created yet (the first hook creates it)"}}
	}
	sessions := 0
	var (
		damaged []*state.DamagedError
		quar    []state.Quarantined
	)
	err := st.View(context.Background(), func(tx *store.Tx) error {
		var err error
		if damaged, err = state.Sessions(tx, func(*state.Session) error { sessions++; return nil }); err != nil {
			return err
		}
		if _, err := state.LoadProject(tx); err != nil {
			damaged = append(damaged, view.ProjectDamage(err))
		}
		quar, err = state.QuarantinedRecords(tx)
		return err
	})
	switch {
	case err != nil:
		return []Check{{Name: "state store", Status: "problem", Detail: fmt.Sprintf("%s: %v", st.Path(), err)}}
	case recovered != "":
		return []Check{{Name: "state store", Status: "problem", Detail: recovered}}
	}
	detail := fmt.Sprintf("%s: readable, %d session(s)", st.Path(), sessions)
	for _, d := range damaged {
		fate := "moved to the quarantine by the next event"
		if errors.Is(d, state.ErrNewer) {
			fate = "left as it is"
		}
		detail += fmt.Sprintf("; %s unreadable (%v), %s", d.Key, d.Err, fate)
	}
	out = append(out, Check{Name: "state store", Status: "ok", Detail: detail})
	if len(quar) > 0 {
		out = append(out, Check{Name: "state quarantine", Status: "note", Detail: quarantineText(quar)})
	}
	return out
}

// readSessions are the counters of the project's sessions, for the
// hooks-fired checks; none when the state has not been created (it is
// not created here) or cannot be read (stateChecks says why).
func readSessions(root string) []sessionSeen {
	st := fleet.Open(root)
	if st.Remote() == nil {
		if _, err := os.Stat(st.Path()); err != nil {
			return nil
		}
	}
	var out []sessionSeen
	_ = st.View(context.Background(), func(tx *store.Tx) error {
		_, err := state.Sessions(tx, func(s *state.Session) error {
			out = append(out, sessionSeen{host: s.Host, id: s.ID, prompts: s.Counters.Prompts, tools: s.Counters.ToolCalls, last: s.Updated})
			return nil
		})
		return err
	})
	return out
}

// quarantineText says what was kept aside, newest first.
func quarantineText(qs []state.Quarantined) string {
	parts := make([]string, 0, len(qs))
	for i := len(qs) - 1; i >= 0; i-- {
		q := qs[i]
		p := fmt.Sprintf("%s %s at %s", q.Kind, q.Key, q.Time.Local().Format(time.DateTime))
		if q.Kind == "project" {
			p += " (PROJECT STATE LOST: " + strings.Join(q.Lost, ", ") + ")"
		}
		parts = append(parts, p)
	}
	return fmt.Sprintf("%d record(s) could not be decoded and were kept aside (their sessions started afresh): %s; removed with old sessions (state.session_retention_days)",
		len(qs), strings.Join(parts, "; "))
}

// teamStoreCheck is doctor's look at a team's database: reachable, at the
// schema this atreides needs, and how long a round trip takes.
func teamStoreCheck(root string) Check {
	doc := fleet.StatusOf(root, os.Getenv)
	if doc.Error != "" {
		return Check{Name: "team store", Status: "problem", Detail: doc.Error}
	}
	return Check{Name: "team store", Status: "ok", Detail: fmt.Sprintf("%s %s, project %s: schema %d, round trip %.2f ms", doc.Backend, doc.Where, doc.Project, *doc.Schema, doc.LatencyMS)}
}
