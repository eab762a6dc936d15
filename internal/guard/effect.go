package guard

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/atreides-dev/atreides/internal/shell"
)

// The effect model: what a command does to the world, beyond the files
// it writes (shell.Effects). Each simple command the walk resolves is
// described by the effects its tool's shape gives it (effect_*.go: which
// subcommand words change, delete, grant or read secrets; which options
// name an environment; which flags only preview), and the judgement is
// one table over (effect, where): the same `<cli> <resource> delete
// --project acme-prod` is judged alike whichever cloud's CLI spells it.
// A judgement fires a rule like any other, so its id can be overridden
// or disabled in configuration and names the finding in the audit log;
// the Result names the effect and its evidence for `check --explain`.

// effectKind is one kind of effect a command has on the world.
type effectKind uint8

const (
	effNone effectKind = iota
	// effCredential: reads or prints a credential (a secret file, the
	// environment, a secret store, a CLI's token).
	effCredential
	// effSend: sends data off the machine.
	effSend
	// effChange: changes remote, shared or production state (deploys,
	// applies, writes to a service or a remote database).
	effChange
	// effDestroy: deletes remote or shared state (a resource, an app, a
	// database, a secret).
	effDestroy
	// effGrant: grants privilege or opens access.
	effGrant
	// effOutside: installs or runs code from outside the ecosystem's
	// usual sources.
	effOutside
	// effHistory: rewrites or deletes history, or bypasses review.
	effHistory
	// effDataLoss: deletes or overwrites data outside the project.
	effDataLoss
	// effSafety: disables a safety control.
	effSafety
	// effPersist: persists across sessions.
	effPersist
	// effEscape: runs a command through a tool's own exec feature.
	effEscape
)

// String is the effect as check --explain and the audit log name it.
func (k effectKind) String() string {
	switch k {
	case effCredential:
		return "reads or prints a credential"
	case effSend:
		return "sends data off the machine"
	case effChange:
		return "changes remote or shared state"
	case effDestroy:
		return "deletes remote or shared state"
	case effGrant:
		return "grants privilege or opens access"
	case effOutside:
		return "installs or runs code from outside"
	case effHistory:
		return "rewrites history or bypasses review"
	case effDataLoss:
		return "deletes or overwrites data outside the project"
	case effSafety:
		return "disables a safety control"
	case effPersist:
		return "persists across sessions"
	case effEscape:
		return "runs a command through a tool's exec feature"
	}
	return ""
}

// readable: the effect happens even when the command only previews (a
// dry run that prints a secret still prints it).
func (k effectKind) readable() bool { return k == effCredential || k == effSend }

// where is what an effect reaches.
type where uint8

const (
	// whereUnknown: nothing in the command names an environment.
	whereUnknown where = iota
	whereProject
	whereHome
	whereSystem
	// whereDev: a development, staging or local environment, or a
	// service on this machine.
	whereDev
	// whereTest: a disposable environment: one a word names as a test
	// or CI environment (app_test, --env=testing, RAILS_ENV=test, e2e)
	// of a tool whose unnamed target is local, or a cluster running on
	// this machine (kind, minikube). Tests recreate it from scratch, so
	// changing or deleting it costs nothing.
	whereTest
	// whereRemote: a remote or shared service, environment unnamed.
	whereRemote
	// whereProduction: an environment the configuration calls production.
	whereProduction
)

func (w where) String() string {
	switch w {
	case whereProject:
		return "the project"
	case whereHome:
		return "the home directory"
	case whereSystem:
		return "the system"
	case whereDev:
		return "a development environment"
	case whereTest:
		return "a disposable test environment"
	case whereRemote:
		return "a remote service"
	case whereProduction:
		return "production"
	}
	return ""
}

// effect is one effect of a command, with the words that show it.
type effect struct {
	kind  effectKind
	where where
	// evidence is the part of the command that shows the effect
	// ("deploy", "--namespace production").
	evidence string
	// rule is the rule that judges it; zero picks the judgement table's.
	rule ruleID
}

// judgement is the rule that judges an effect at a place, or the zero
// ruleID when the effect is allowed there. It is the one table of the
// model: derivers say what a command does, this says what it costs.
func judgement(e effect) ruleID {
	switch e.kind {
	case effChange:
		switch e.where {
		case whereProduction:
			return ruleEffectProdChange
		case whereRemote:
			return ruleEffectRemoteChange
		}
	case effDestroy:
		switch e.where {
		case whereProduction:
			return ruleEffectProdDestroy
		case whereTest:
			return ruleID{}
		}
		return ruleEffectRemoteDestroy
	case effCredential:
		return ruleEffectCredential
	case effGrant:
		return ruleEffectGrant
	case effOutside:
		return ruleEffectOutsideCode
	case effHistory:
		return ruleEffectReviewBypass
	case effSafety:
		return ruleEffectSafetyOff
	case effSend:
		return ruleEffectSend
	case effDataLoss:
		return ruleEffectDataLoss
	case effPersist:
		return ruleEffectPersist
	case effEscape:
		return ruleEffectToolExec
	}
	return ruleID{}
}

// emit judges the effect e of command c.
func (a effectJudge) emit(c *Cmd, e effect) {
	if !a.judging() || e.kind == effNone || c != nil && c.previewOnly && !e.kind.readable() {
		return
	}
	id := e.rule
	if id == (ruleID{}) {
		id = judgement(e)
	}
	if id == (ruleID{}) {
		return
	}
	before := a.res.Rule
	detail := e.evidence
	if w := e.where.String(); w != "" && e.where != whereUnknown {
		detail = strings.TrimSpace(detail + " (" + w + ")")
	}
	a.fire(id, c, detail)
	if a.res.Rule != before || a.res.Rule == id.name {
		a.res.Effect, a.res.Evidence = e.kind.String(), e.evidence
	}
}

// deriver adds the effects of one tool's commands (effect_*.go): it
// reads c and emits what it finds.
type deriver func(a effectJudge, c *Cmd)

// deriverTables are the effect files' registrations, in the order their
// effects are judged (the most specific first: at equal verdicts the
// first finding names the decision).
func deriverTables() [5][]deriverReg {
	return [5][]deriverReg{credDerivers, escapeDerivers, reviewDerivers, supplyDerivers, remoteDerivers}
}

// derivers are the effect derivers of a program name ("*": those that
// run for every program), in the tables' order, as their positions in
// the tables laid end to end (deriverAt): a byte each, looked up in
// ruleindex_gen.go's deriverIndex, which TestRuleIndexGenerated keeps
// equal to the registrations. Scanning every registration's names was
// most of the first lookups' cost in a hook.
func derivers(name string) string {
	i, ok := slices.BinarySearchFunc(deriverIndex[:], name, func(e namedDerivers, n string) int { return strings.Compare(e.name, n) })
	if !ok {
		return ""
	}
	return deriverIndex[i].regs
}

// namedDerivers are a program name's derivers (derivers).
type namedDerivers struct {
	name string
	regs string
}

// deriverAt is the registration at position i of the tables laid end to
// end.
func deriverAt(i int) deriverReg {
	for _, t := range deriverTables() {
		if i < len(t) {
			return t[i]
		}
		i -= len(t)
	}
	panic(fmt.Sprintf("guard: no deriver registration %d: ruleindex_gen.go is stale", i)) // Check denies
}

// byName finds what a plain-data table registers for a program name
// (registrations name their programs "a|b"). A hook judges a handful of
// programs, so each name is looked up when first asked for instead of
// indexing every registration in every process; answers are kept for
// long-lived processes (serve), up to maxNamesCached names, since names
// come from commands, which such a process does not control.
type byName[T any] struct {
	find  func(name string) T
	cache sync.Map
	kept  atomic.Int64
}

func (b *byName[T]) get(name string) T {
	if v, ok := b.cache.Load(name); ok {
		return v.(T)
	}
	v := b.find(name)
	if b.kept.Add(1) <= maxNamesCached {
		b.cache.Store(name, v)
	}
	return v
}

// maxNamesCached bounds the names a byName keeps.
const maxNamesCached = 4096

// deriverReg is one registration: the program names, "|"-separated, and
// the deriver that describes them.
type deriverReg struct {
	names string
	d     deriver
}

// deriveEffects runs the derivers for c.
func (a effectJudge) deriveEffects(c *Cmd) {
	for _, name := range [...]string{c.Name, "*"} {
		regs := derivers(name)
		for i := 0; i < len(regs); i++ {
			deriverAt(int(regs[i])).d(a, c)
		}
	}
}

// words is c's static positionals, lower case, at most n of them: the
// subcommand words a CLI's shape is read from. A computed word reads "".
func words(c *Cmd, n int) []string {
	p := c.Pos()
	if len(p) > n {
		p = p[:n]
	}
	out := make([]string, len(p))
	for i, w := range p {
		if !w.Dyn {
			out[i] = strings.ToLower(w.Text)
		}
	}
	return out
}

// envOf is the value of the variable name in c's environment: its own
// assignments (RAILS_ENV=production cmd, env X=1 cmd) or an exported
// value in its scope.
func envOf(c *Cmd, name string) (shell.Word, bool) {
	if w, ok := c.env[name]; ok {
		return w, true
	}
	if c.Scope != nil {
		if w, ok := c.Scope.Vars[name]; ok {
			return w, true
		}
	}
	return shell.Word{}, false
}

// categoryEffect is the effect a rule of the category judges, for the
// rules written before the effect model (a deny among the service rules
// deletes, an ask disrupts); effNone where no effect says it better
// (parse failures, computed commands, atreides's own files).
func categoryEffect(category string, v Verdict) effectKind {
	switch category {
	case "secret":
		return effCredential
	case "exfiltration":
		return effSend
	case "git":
		return effHistory
	case "filesystem", "disk":
		return effDataLoss
	case "tampering":
		return effSafety
	case "persistence":
		return effPersist
	case "privilege", "permissions":
		return effGrant
	case "rce":
		return effOutside
	case "publish":
		return effChange
	case "cloud", "storage", "databases", "kubernetes", "messaging", "platform", "network", "saas",
		"monitoring", "containers", "infra", "remote", "secrets", "packages", "production":
		if v == Deny {
			return effDestroy
		}
		return effChange
	}
	return effNone
}

// maxEvidence bounds the evidence a Result quotes of a command.
const maxEvidence = 120

// evidence is what a finding quotes: the detail the analysis gave, or
// the command the rule matched.
func evidence(c *Cmd, detail string) string {
	s := detail
	if s == "" && c != nil {
		s = c.Argv()
	}
	if len(s) > maxEvidence {
		s = s[:maxEvidence] + "…"
	}
	return s
}
