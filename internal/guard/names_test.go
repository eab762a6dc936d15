package guard

import (
	"slices"
	"testing"
)

func TestNameLookups(t *testing.T) {
	for _, tc := range []struct {
		name string
		is   func(string) bool
		list []string
		bad  string
	}{
		{"rule", IsRule, RuleIDs(), "git.no-such-rule"},
		{"group", IsGroup, Groups(), "no-such-group"},
		{"switch", IsSwitch, SwitchNames(), "no_such_switch"},
	} {
		if len(tc.list) == 0 {
			t.Fatalf("no %ss", tc.name)
		}
		for _, n := range tc.list {
			if !tc.is(n) {
				t.Errorf("%s %q is listed but not known", tc.name, n)
			}
		}
		if tc.is(tc.bad) || tc.is("") {
			t.Errorf("unknown %s %q is known", tc.name, tc.bad)
		}
		if !slices.IsSorted(tc.list) && tc.name != "switch" {
			t.Errorf("%ss are not sorted: %v", tc.name, tc.list)
		}
	}
}

// A rule in a group that is off and not askWhenOff does not make its
// program a known one, and an enabled group's does: policies share one
// index and select from it.
func TestPolicySelectsGroups(t *testing.T) {
	var r *Rule
	for _, id := range RuleIDs() {
		x := ruleNamed(id)
		if x.Group != "" && !slices.Contains(askWhenOff, x.Group) && len(x.Names) > 0 && !endsWithStar(x.Names[0]) {
			if len(slices.Collect(rulesNamed(x.Names[0]))) == 1 {
				r = x
				break
			}
		}
	}
	if r == nil {
		t.Fatal("no opt-in rule with a program of its own")
	}
	off := DefaultPolicy()
	on, err := NewPolicy(Options{Groups: []string{r.Group}})
	if err != nil {
		t.Fatal(err)
	}
	disabled, err := NewPolicy(Options{Groups: []string{r.Group}, Disabled: []string{r.ID.String()}})
	if err != nil {
		t.Fatal(err)
	}
	name := r.Names[0]
	if off.hasRules(name) || !on.hasRules(name) || disabled.hasRules(name) {
		t.Errorf("%s (%s, group %s): has rules off=%v on=%v disabled=%v, want false true false",
			name, r.ID, r.Group, off.hasRules(name), on.hasRules(name), disabled.hasRules(name))
	}
}

func endsWithStar(s string) bool { return len(s) > 0 && s[len(s)-1] == '*' }

// TestNameTablesSorted: dataProgram finds its names by binary search, so
// they are sorted, one entry per name; a name out of order is missed.
func TestNameTablesSorted(t *testing.T) {
	names := dataProgramNames[:]
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Errorf("dataProgramNames: %q before %q", names[i-1], names[i])
		}
	}
	for _, n := range append(names, "no-such-program", "") {
		if got, want := dataProgram(n), slices.Contains(names, n); got != want {
			t.Errorf("dataProgram(%q) = %v, want %v", n, got, want)
		}
	}
}
