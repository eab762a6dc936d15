package govstate

import (
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
)

var t0 = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

// encoded is the project record holding g.
func encoded(g Governance) string {
	p := &state.Project{}
	*Key.Of(p) = g
	return string(state.EncodeProject(p))
}

// TestTouchAndRenewWithinAMinute: an event less than touchEvery after the
// last one of the same session changes neither Recent nor the lease, so
// the project record is not rewritten; a later one, another session, or a
// clock that went back does.
func TestTouchAndRenewWithinAMinute(t *testing.T) {
	for _, tc := range []struct {
		name    string
		session string
		after   time.Duration
		changed bool
	}{
		{"same session, 10 s later", "a", 10 * time.Second, false},
		{"same session, a minute later", "a", touchEvery, true},
		{"another session, 10 s later", "b", 10 * time.Second, true},
		{"back to a session seen 10 s ago, after another's", "a", 10 * time.Second, false},
		{"the clock went back", "a", -time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g Governance
			g.Touch("a", "claude", t0)
			if strings.HasPrefix(tc.name, "back to") {
				g.Touch("b", "claude", t0.Add(time.Second))
			}
			lock := IntentLock{Intent: "I-1", Session: "a", Since: t0, Renewed: t0}
			before := encoded(g)
			now := t0.Add(tc.after)
			g.Touch(tc.session, "claude", now)
			lock.renew(now)
			changed := encoded(g) != before
			if changed != tc.changed {
				t.Errorf("Recent changed = %v, want %v: %+v", changed, tc.changed, g.Recent)
			}
			if renewed := !lock.Renewed.Equal(t0); tc.session == "a" && renewed != tc.changed {
				t.Errorf("lease renewed = %v, want %v", renewed, tc.changed)
			}
			if newest := g.Recent[0].ID; tc.changed && newest != tc.session {
				t.Errorf("newest session %s, want %s", newest, tc.session)
			}
		})
	}
}
