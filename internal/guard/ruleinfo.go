package guard

import (
	"sort"
	"strings"
)

// RuleInfo is one built-in rule as `atreides check --rules` lists it.
type RuleInfo struct {
	ID string
	// Group is the opt-in group the rule belongs to; "" when it is on by
	// default.
	Group string
	// Verdict is what the rule answers by default: its own, or its
	// switch's default (Switch names the switch).
	Verdict string
	Switch  string
	// Summary is what the rule stops, in one line: its reason to the
	// model up to the first advice, else its category.
	Summary string
}

// RuleIndex is every built-in rule, by id; a rule registered under
// several command names is listed once, as its first registration says.
func RuleIndex() []RuleInfo {
	var out []RuleInfo
	for r := range uniqueRules {
		out = append(out, r.info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func (r *Rule) info() RuleInfo {
	in := RuleInfo{ID: r.ID.name, Group: r.Group, Verdict: r.Verdict.String(), Switch: r.Switch, Summary: r.Category}
	if r.Switch != "" {
		if def, ok := SwitchDefault(r.Switch); ok {
			in.Verdict = def
		}
	}
	if first, _, _ := strings.Cut(r.Reason, ";"); strings.TrimSpace(first) != "" {
		// "this deletes …" is said to the model about its command; a list
		// of rules says what each stops: "deletes …".
		in.Summary = strings.TrimPrefix(strings.TrimSpace(first), "this ")
	}
	return in
}

// SwitchDoc is what a policy switch governs, in one line; "" for a name
// that is no switch.
func SwitchDoc(name string) string {
	for _, s := range switchDefs {
		if s.name == name {
			return s.doc
		}
	}
	return ""
}
