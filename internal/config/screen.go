package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/guard"
)

// A project's config file comes with the repository: whoever wrote the
// repository wrote it. Until the user trusts it (trust.go), it may only
// tighten the policy. screen removes from its value tree whatever would
// loosen the guard or governance, run a program or open a connection,
// judged against the configuration below it (the defaults and the user's
// file), and says what it removed. Settings that change neither safety
// nor what runs (texts, budgets, the roster's prompts) pass as written.

// Why an untrusted project file may not set a key.
const (
	WhyLoosens  = "loosens"  // it weakens the guard, governance or the audit trail
	WhyRuns     = "runs"     // it makes atreides run a program
	WhyConnects = "connects" // it opens a connection or sends data out
)

// Ignored is one setting of an untrusted project file that was not applied.
type Ignored struct {
	Key   string `json:"key"` // printable key, e.g. guard.verdicts."fs.rm-root-home"
	Line  int    `json:"line"`
	Why   string `json:"why"`   // WhyLoosens, WhyRuns or WhyConnects
	Value string `json:"value"` // what it would have set, shortened
}

// screenKind is how an untrusted file's value at a key is judged.
type screenKind uint8

const (
	loosens       screenKind = iota // ignored unless it equals the value below it
	runs                            // a program atreides would run: ignored unless unchanged
	connects                        // a connection or a destination: ignored unless unchanged
	boolOn                          // true is the stricter value
	lowerInt                        // a lower number is stricter
	lowerNonZero                    // a lower number is stricter, 0 (none) the loosest
	higherInt                       // a higher number is stricter (keeps more)
	ranked                          // a value of levels; a higher level is stricter
	union                           // a list whose items each tighten: the base's stay
	subset                          // a list whose items each loosen: only the base's may stay
	ruleVerdict                     // guard.verdicts.<rule>
	switchVerdict                   // guard.switches.<name>
	customRules                     // rules: deny and ask rules tighten, allow rules loosen
)

type screenRule struct {
	path   string // dotted; "*" matches any one key
	kind   screenKind
	levels [][]string // ranked: the values from loosest to strictest
	// known, for a subset list, tells a name that means something: an
	// item it does not know loosens nothing and stays (guard.disable: a
	// name that is no rule stays, for the guard to refuse the file as it
	// refuses any typo).
	known func(string) bool
}

// The levels of ranked values, loosest first. A string no level holds
// ranks lowest.
var (
	verdictLevels = [][]string{{"allow"}, {"ask"}, {"deny"}}
	readLevels    = [][]string{{"off"}, {"note"}, {"block"}}
	toolLevels    = [][]string{{"full"}, {"read-web", "plans-only"}, {"read-only", ""}}
	// A lower preset switches off handlers that can block (delegation
	// limits, read-before-write): a higher one is stricter.
	presetLevels = [][]string{{string(PresetGuard)}, {string(PresetStandard)}, {string(PresetFull)}}
)

func rank(levels [][]string, s string) int {
	for i, l := range levels {
		if slices.Contains(l, s) {
			return i
		}
	}
	return 0
}

func verdictRank(s string) int { return rank(verdictLevels, s) }

// screens lists every key that is not free. A key not listed (and not
// under a listed one) is free.
var screens = []screenRule{
	{path: "preset", kind: ranked, levels: presetLevels},
	{path: "guard.enabled", kind: boolOn},
	{path: "guard.disable", kind: subset, known: guard.IsRule},
	{path: "guard.verdicts.*", kind: ruleVerdict},
	{path: "guard.groups", kind: union},
	{path: "guard.switches.*", kind: switchVerdict},
	{path: "guard.production.*", kind: union},
	{path: "rules", kind: customRules},
	{path: "governance.enabled", kind: boolOn},
	{path: "governance.unknown_writes", kind: ranked, levels: verdictLevels},
	{path: "governance.exempt", kind: subset},
	{path: "governance.trace", kind: boolOn},
	{path: "delegation.max_depth", kind: lowerInt},
	{path: "delegation.deadline_minutes.*", kind: lowerNonZero},
	{path: "background.timeouts.*", kind: lowerNonZero},
	{path: "delegation.require_todo", kind: boolOn},
	{path: "delegation.structured_return", kind: union},
	{path: "context.read_before_write", kind: ranked, levels: readLevels},
	{path: "context.checks.run", kind: runs},
	{path: "background.commands", kind: runs},
	{path: "background.resume", kind: runs},
	{path: "tasks.plans.verify", kind: runs},
	{path: "tasks.plans.require_approval", kind: boolOn},
	{path: "tasks.commits.enabled", kind: runs},
	{path: "tasks.dir", kind: loosens},
	{path: "export.dir", kind: loosens},
	{path: "session.rules.file", kind: loosens},
	{path: "context.rules.dirs", kind: loosens},
	{path: "agents.*.tools", kind: ranked, levels: toolLevels},
	{path: "background.categories.*.tools", kind: ranked, levels: toolLevels},
	// The reviewers' agent: a project could otherwise make a review the
	// user starts run with its tools approved (a full agent's mode).
	{path: "review.agent", kind: loosens},
	{path: "audit.max_mib", kind: higherInt},
	{path: "state.session_retention_days", kind: higherInt},
	{path: "store", kind: connects},
	{path: "otel", kind: connects},
	{path: "project.id", kind: connects},
}

// screen returns proj with what an untrusted file may not set removed,
// judged against base (the merged defaults and user file), and the
// settings it removed.
func screen(base, proj *value) (*value, []Ignored) {
	s := &screener{base: base}
	out := s.walk(nil, base, proj)
	return out, s.ignored
}

type screener struct {
	ignored []Ignored
	base    *value // the root of base, for rules that look elsewhere
}

func (s *screener) ignore(key string, v *value, why string) {
	s.ignored = append(s.ignored, Ignored{Key: key, Line: v.src.Line, Why: why, Value: shortValue(v)})
}

// walk screens proj at path (its keys so far) against base at the same
// place (nil where base has nothing there). It returns what may stay, nil
// for nothing.
func (s *screener) walk(path []string, base, proj *value) *value {
	if r, ok := screenFor(path); ok {
		return s.apply(r, path, base, proj)
	}
	if proj.kind == kindNull && len(path) > 0 && screenedBelow(path) && !emptyValue(base) {
		// A reset of a whole section (guard.verdicts: ~) would take the
		// user's own settings under it back to the defaults: it is
		// judged as a reset of each of them would be.
		s.ignore(printKey(path), proj, WhyLoosens)
		return nil
	}
	if proj.kind != kindMapping {
		return proj
	}
	out := &value{kind: kindMapping, free: proj.free, src: proj.src, fields: make(map[string]*value, len(proj.fields))}
	for _, k := range proj.keys {
		var b *value
		if base != nil {
			b = base.child(k)
		}
		if v := s.walk(append(path[:len(path):len(path)], k), b, proj.fields[k]); v != nil {
			out.keys = append(out.keys, k)
			out.fields[k] = v
		}
	}
	return out
}

// screenedBelow reports whether a key under path is screened.
func screenedBelow(path []string) bool {
	for _, r := range screens {
		parts := strings.Split(r.path, ".")
		if len(parts) > len(path) && matchPath(parts[:len(path)], path) {
			return true
		}
	}
	return false
}

// emptyValue reports whether v holds nothing a reset could take away.
func emptyValue(v *value) bool {
	return v == nil || v.kind == kindNull || len(v.keys) == 0 && len(v.items) == 0 && v.kind != kindScalar
}

// matchPath reports whether the rule's parts ("*" matches any one key)
// are path.
func matchPath(parts, path []string) bool {
	if len(parts) != len(path) {
		return false
	}
	for i, p := range parts {
		if p != "*" && p != path[i] {
			return false
		}
	}
	return true
}

// screenFor finds the rule for path itself; ok is false when path is
// free or only something below it is screened.
func screenFor(path []string) (screenRule, bool) {
	for _, r := range screens {
		if matchPath(strings.Split(r.path, "."), path) {
			return r, true
		}
	}
	return screenRule{}, false
}

func (s *screener) apply(r screenRule, path []string, base, proj *value) *value {
	key := printKey(path)
	if proj.kind == kindNull {
		// A reset to the default: the user's own value may be the
		// stricter one.
		if base == nil {
			return proj
		}
		s.ignore(key, proj, whyOf(r.kind))
		return nil
	}
	switch r.kind {
	case loosens, runs, connects:
		if sameValue(base, proj) {
			return proj
		}
		s.ignore(key, proj, whyOf(r.kind))
		return nil
	case union:
		return unionList(base, proj)
	case subset:
		return s.subsetList(r, key, base, proj)
	case customRules:
		return s.rules(key, base, proj)
	}
	if s.tighter(r, path, base, proj) {
		return proj
	}
	s.ignore(key, proj, WhyLoosens)
	return nil
}

// tighter reports whether the scalar proj is at least as strict as what
// base has at its place.
func (s *screener) tighter(r screenRule, path []string, base, proj *value) bool {
	switch r.kind {
	case boolOn:
		on, _ := proj.scalar.(bool)
		return on || base == nil || base.scalar == false
	case lowerInt, lowerNonZero, higherInt:
		p, _ := proj.scalar.(int)
		b, ok := intOf(base)
		if !ok && r.kind == lowerNonZero {
			b, ok = s.impliedDeadline(path)
		}
		switch {
		case r.kind == higherInt:
			return !ok || p >= b
		case r.kind == lowerNonZero && p == 0:
			return ok && b == 0
		case r.kind == lowerNonZero:
			return !ok || b == 0 || p <= b
		}
		return !ok || p <= b
	case ranked:
		return rank(r.levels, str(proj)) >= rank(r.levels, str(base))
	case ruleVerdict:
		// A name that is no rule stays, for the guard to refuse.
		id := path[len(path)-1]
		return !guard.IsRule(id) || verdictRank(str(proj)) >= s.ruleBase(id, base)
	case switchVerdict:
		name := path[len(path)-1]
		_, known := guard.SwitchDefault(name)
		return !known || verdictRank(str(proj)) >= s.switchBase(name, base)
	}
	return false
}

// ruleBase is the rank of the verdict a rule has below the project file:
// the user's override, else the built-in one, and for a rule that takes
// its verdict from a switch, at least the switch's value there.
func (s *screener) ruleBase(id string, base *value) int {
	if base != nil {
		return verdictRank(str(base))
	}
	v, sw, _ := guard.BuiltinVerdict(id)
	if sw != "" {
		return max(verdictRank(v), s.switchBase(sw, s.at("guard", "switches", sw)))
	}
	return verdictRank(v)
}

// switchBase is the rank of a switch's value below the project file.
func (s *screener) switchBase(name string, base *value) int {
	if base != nil {
		return verdictRank(str(base))
	}
	d, _ := guard.SwitchDefault(name)
	return verdictRank(d)
}

// impliedDeadline is what a subagent's deadline is without the key at
// path (delegation.deadline_minutes.<type> that the base lacks): the
// base's "*", else the shortest of its operations' times
// (background.timeouts), since the screen does not know the type's
// operation; false for another key.
func (s *screener) impliedDeadline(path []string) (int, bool) {
	if len(path) != 3 || path[0] != "delegation" || path[1] != "deadline_minutes" {
		return 0, false
	}
	if b, ok := intOf(s.at("delegation", "deadline_minutes", "*")); ok {
		return b, true
	}
	ops := s.at("background", "timeouts")
	if ops == nil {
		return 0, false
	}
	least, found := 0, false
	for _, k := range ops.keys {
		if m, ok := intOf(ops.fields[k]); ok && m > 0 && (!found || m < least) {
			least, found = m, true
		}
	}
	return least, found
}

func (s *screener) at(path ...string) *value {
	v := s.base
	for _, p := range path {
		if v == nil {
			return nil
		}
		v = v.child(p)
	}
	return v
}

// rules keeps the project's deny and ask rules after the base's own:
// a user rule still comes first.
func (s *screener) rules(key string, base, proj *value) *value {
	out := &value{kind: kindList, src: proj.src}
	if base != nil {
		out.items = append(out.items, base.items...)
	}
	for i, it := range proj.items {
		if v := it.child("verdict"); v != nil && str(v) != "allow" {
			out.items = append(out.items, it)
			continue
		}
		s.ignore(joinIndex(key, i), it, WhyLoosens)
	}
	return out
}

// subsetList keeps the items of proj that base has too: each item of
// such a list (a disabled rule, an exempt glob) loosens.
func (s *screener) subsetList(r screenRule, key string, base, proj *value) *value {
	out := &value{kind: kindList, src: proj.src}
	for i, it := range proj.items {
		if base != nil && containsScalar(base.items, it) || r.known != nil && !r.known(str(it)) {
			out.items = append(out.items, it)
			continue
		}
		s.ignore(joinIndex(key, i), it, WhyLoosens)
	}
	return out
}

// unionList is base's items and then proj's that base lacks: each item
// of such a list (a rule group) tightens.
func unionList(base, proj *value) *value {
	out := &value{kind: kindList, src: proj.src}
	if base != nil {
		out.items = append(out.items, base.items...)
	}
	for _, it := range proj.items {
		if !containsScalar(out.items, it) {
			out.items = append(out.items, it)
		}
	}
	return out
}

func containsScalar(items []*value, v *value) bool {
	for _, it := range items {
		if it.kind == kindScalar && v.kind == kindScalar && it.scalar == v.scalar {
			return true
		}
	}
	return false
}

// sameValue reports whether a and b hold the same data, wherever it came
// from.
func sameValue(a, b *value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kindScalar:
		return a.scalar == b.scalar
	case kindList:
		if len(a.items) != len(b.items) {
			return false
		}
		for i := range a.items {
			if !sameValue(a.items[i], b.items[i]) {
				return false
			}
		}
		return true
	case kindMapping:
		for _, k := range b.keys {
			if !sameValue(a.fields[k], b.fields[k]) {
				return false
			}
		}
		return true
	}
	return false
}

func whyOf(k screenKind) string {
	switch k {
	case runs:
		return WhyRuns
	case connects:
		return WhyConnects
	}
	return WhyLoosens
}

func intOf(v *value) (int, bool) {
	if v == nil {
		return 0, false
	}
	i, ok := v.scalar.(int)
	return i, ok
}

func str(v *value) string {
	if v == nil {
		return ""
	}
	s, _ := v.scalar.(string)
	return s
}

func printKey(path []string) string {
	key := ""
	for _, p := range path {
		key = joinKey(key, p)
	}
	return key
}

// shortValue renders v for a message: a scalar as written, a list or
// mapping by its size; at most 60 characters.
func shortValue(v *value) string {
	var s string
	switch v.kind {
	case kindScalar:
		switch x := v.scalar.(type) {
		case string:
			s = strconv.Quote(x)
		default:
			s = fmt.Sprint(x)
		}
	case kindList:
		s = fmt.Sprintf("a list of %d", len(v.items))
	case kindMapping:
		s = fmt.Sprintf("%d settings", len(v.keys))
	case kindNull:
		s = "null"
	}
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
