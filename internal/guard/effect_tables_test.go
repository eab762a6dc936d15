package guard

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestToolTablesMatchRegistrations: a per-tool table answers for exactly
// the names its deriver is registered for (deriveServe's answers for a
// subset: redis-server has protected mode only). A name registered
// without an entry would be silently unjudged; an entry without a
// registration is dead.
func TestToolTablesMatchRegistrations(t *testing.T) {
	keys := func(m any) []string {
		var out []string
		for _, k := range reflect.ValueOf(m).MapKeys() {
			out = append(out, k.String())
		}
		return out
	}
	for _, tc := range []struct {
		d        deriver
		keys     []string
		complete bool
	}{
		{deriveOtherPkg, keys(otherPkgTools.get()), true},
		{deriveToolSources, keys(toolSources.get()), true},
		{deriveGrants, keys(grantTools.get()), true},
		{deriveMoreSources, keys(moreSources.get()), true},
		{derivePyTools, keys(pyTools.get()), true},
		{deriveCloudAccess, keys(cloudAccess.get()), true},
		{deriveServe, keys(servers.get()), false},
		{osControlEffects, keys(osControls.get()), true},
		{toolDataLoss, keys(toolDataLosses.get()), true},
	} {
		var names []string
		for _, regs := range deriverTables() {
			for _, r := range regs {
				if reflect.ValueOf(r.d).Pointer() == reflect.ValueOf(tc.d).Pointer() {
					names = append(names, strings.Split(r.names, "|")...)
				}
			}
		}
		if len(names) == 0 {
			t.Errorf("%v: no registration found", tc.keys)
		}
		for _, k := range tc.keys {
			if !slices.Contains(names, k) {
				t.Errorf("%v: table entry %q is not registered (%v)", tc.keys, k, names)
			}
		}
		if !tc.complete {
			continue
		}
		for _, n := range names {
			if !slices.Contains(tc.keys, n) {
				t.Errorf("registered name %q has no table entry (%v)", n, tc.keys)
			}
		}
	}
}
