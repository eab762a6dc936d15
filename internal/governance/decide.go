package governance

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// Decide records the user's decision on scope request id in the project
// at root, in one store transaction, and returns the request as decided.
// `atreides intent approve|deny` calls it after checking that a person
// runs it; the scope gate reads the approved paths from the store
// (govstate.Governance.Granted), never from the intents file.
func Decide(ctx context.Context, root string, id int, approve bool, note string, now time.Time) (govstate.ScopeRequest, error) {
	var out govstate.ScopeRequest
	st := fleet.OpenLogged(root)
	err := st.Update(ctx, func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			r, err := govstate.Key.Of(p).Decide(id, approve, note, now)
			if err != nil {
				return err
			}
			out = *r
			return nil
		})
	})
	return out, err
}

// tellDecisions is the line that tells the session's agent of the user's
// decisions on its scope requests, once each, at its first event that can
// carry context after them; nil when there is none to tell.
func (g *gov) tellDecisions() []event.Entry {
	ev := g.ev()
	switch ev.Kind {
	case event.UserPrompt, event.PostTool, event.SessionStart:
	default:
		return nil
	}
	untold := g.p().Untold(ev.SessionID)
	if len(untold) == 0 {
		return nil
	}
	var b strings.Builder
	for i, r := range untold {
		r.Told = true
		if i > 0 {
			b.WriteString("\n")
		}
		paths := strings.Join(r.Paths, ", ")
		if r.Status == govstate.Approved {
			fmt.Fprintf(&b, "atreides: the user approved scope request #%d: intent %s now also owns %s.", r.ID, r.Intent, paths)
		} else {
			fmt.Fprintf(&b, "atreides: the user denied scope request #%d (%s for intent %s): do not write there.", r.ID, paths, r.Intent)
		}
		if r.Note != "" {
			fmt.Fprintf(&b, " Their note: %s", r.Note)
		}
	}
	return []event.Entry{{Source: "governance", ID: "scope-decision", Priority: event.High, Text: b.String()}}
}
