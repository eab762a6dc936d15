package policy

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/guard"
)

// FromConfig builds the guard policy a configuration asks for. Rule ids,
// groups and switches only the guard knows are checked here, and each
// unknown one is reported at its line in the config file.
func FromConfig(cfg *config.Config) (*guard.Policy, error) {
	if !cfg.Guard.Enabled {
		return nil, nil
	}
	if errs := NameErrors(cfg); len(errs) > 0 {
		return nil, &config.ValidationError{Errs: errs}
	}
	g := cfg.Guard
	o := guard.Options{
		Disabled: g.Disable,
		Groups:   g.Groups,
		Verdicts: map[string]string{},
		Switches: g.Switches,
		Production: guard.Production{
			Contexts:    prodNames(g.Production.Contexts),
			Namespaces:  prodNames(g.Production.Namespaces),
			Hosts:       prodNames(g.Production.Hosts),
			Inventories: prodNames(g.Production.Inventories),
			Stacks:      prodNames(g.Production.Stacks),
		},
	}
	for id, v := range g.Verdicts {
		o.Verdicts[id] = string(v)
	}
	for i, r := range cfg.Rules {
		o.Custom = append(o.Custom, guard.CustomRule{
			ID:      "config.rules[" + strconv.Itoa(i) + "]",
			Verdict: string(r.Verdict),
			Tool:    string(r.Tool),
			Command: r.Command,
			Path:    string(r.Path),
			Reason:  r.Reason,
		})
	}
	if len(o.Disabled) == 0 && len(o.Groups) == 0 && len(o.Verdicts) == 0 && len(o.Switches) == 0 && len(o.Custom) == 0 &&
		defaultProduction(o.Production) {
		return guard.DefaultPolicy(), nil
	}
	p, err := guard.NewPolicy(o)
	if err != nil {
		return nil, fmt.Errorf("guard policy: %w", err)
	}
	return p, nil
}

// prodNames is one guard.production list as the guard takes it: nil
// when it holds the default names (so an unchanged configuration keeps
// the default policy), else the names, an empty list staying empty (the
// user's [] means none).
func prodNames(l []config.ProdName) []string {
	if l == nil {
		return nil
	}
	out := make([]string, len(l))
	for i, n := range l {
		out[i] = string(n)
	}
	if slices.Equal(out, guard.DefaultProductionNames()) {
		return nil
	}
	return out
}

// defaultProduction: every list takes the guard's default names.
func defaultProduction(pr guard.Production) bool {
	return pr.Contexts == nil && pr.Namespaces == nil && pr.Hosts == nil && pr.Inventories == nil && pr.Stacks == nil
}

// NameErrors lists every guard name in cfg the guard does not know (rule
// ids, groups, switches), with its position and the nearest known name
// when it looks like a typo of one, in file order. It is the meaning
// check of config.Validate.
func NameErrors(cfg *config.Config) []config.FieldError {
	var errs []config.FieldError
	// The rule ids are listed on the first unknown one only: a
	// configuration that checks out (every hook event that reads one)
	// lists nothing and allocates nothing for them.
	var rules []string
	unknownRule := func(id string) string {
		if rules == nil {
			rules = guard.RuleIDs()
		}
		return fmt.Sprintf("unknown rule id %q%s (see 'atreides check --rules')", id, didYouMean(id, rules))
	}
	for i, id := range cfg.Guard.Disable {
		if !guard.IsRule(id) {
			errs = append(errs, cfg.ErrorAt(unknownRule(id), "guard", "disable", strconv.Itoa(i)))
		}
	}
	for id := range cfg.Guard.Verdicts {
		if !guard.IsRule(id) {
			errs = append(errs, cfg.ErrorAt(unknownRule(id), "guard", "verdicts", id))
		}
	}
	for i, g := range cfg.Guard.Groups {
		if !guard.IsGroup(g) {
			errs = append(errs, cfg.ErrorAt(fmt.Sprintf("unknown group %q%s (known: %v)", g, didYouMean(g, guard.Groups()), guard.Groups()), "guard", "groups", strconv.Itoa(i)))
		}
	}
	for name := range cfg.Guard.Switches {
		if !guard.IsSwitch(name) {
			errs = append(errs, cfg.ErrorAt(fmt.Sprintf("unknown switch %q%s (known: %v)", name, didYouMean(name, guard.SwitchNames()), guard.SwitchNames()), "guard", "switches", name))
		}
	}
	slices.SortFunc(errs, func(a, b config.FieldError) int { return a.Line - b.Line })
	return errs
}

// didYouMean is ", did you mean "x"?" for the known name nearest to s,
// or "" when none is near.
func didYouMean(s string, known []string) string {
	if best, ok := config.Nearest(s, known); ok {
		return fmt.Sprintf(", did you mean %q?", best)
	}
	return ""
}
