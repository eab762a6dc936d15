package governance

import (
	"reflect"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/event"
)

// FromConfig maps the governance section, and the task system's scoped
// commits keep the ledger with governance on or off.
func TestFromConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*config.Config)
		want Options
	}{
		{"built-in", func(*config.Config) {}, Options{Lease: 30 * time.Minute, UnknownWrites: event.Ask, Trace: true}},
		{"on, strict", func(c *config.Config) {
			c.Governance = config.Governance{Enabled: true, LeaseMinutes: 5, UnknownWrites: config.Deny, Exempt: []config.Glob{"docs/**"}}
		}, Options{Enabled: true, Lease: 5 * time.Minute, UnknownWrites: event.Deny, Exempt: []string{"docs/**"}}},
		{"unknown writes allowed", func(c *config.Config) { c.Governance.UnknownWrites = config.Allow },
			Options{Lease: 30 * time.Minute, UnknownWrites: event.Allow, Trace: true}},
		{"scoped commits, governance off", func(c *config.Config) {
			c.Governance.Trace, c.Tasks.Commits.Enabled = false, true
		}, Options{Lease: 30 * time.Minute, UnknownWrites: event.Ask, Trace: true, TraceOnly: true}},
		{"scoped commits, governance on", func(c *config.Config) {
			c.Governance.Enabled, c.Governance.Trace, c.Tasks.Commits.Enabled = true, false, true
		}, Options{Enabled: true, Lease: 30 * time.Minute, UnknownWrites: event.Ask, Trace: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config.Builtin()
			tc.edit(c)
			if got := FromConfig(c); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
