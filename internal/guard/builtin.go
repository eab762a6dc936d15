package guard

// BuiltinVerdict is the verdict rule id has before any configuration
// changes it, and the policy switch it takes its verdict from ("" for
// none): what package config measures a project file's verdict override
// against when it decides whether the file tightens or loosens the guard.
// ok is false for an id that names no rule.
func BuiltinVerdict(id string) (verdict, sw string, ok bool) {
	r := ruleNamed(id)
	if r == nil {
		return "", "", false
	}
	if r.Switch != "" {
		d, _ := SwitchDefault(r.Switch)
		return d, r.Switch, true
	}
	return r.Verdict.String(), "", true
}
