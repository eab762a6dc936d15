package session

import (
	"time"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
)

// Options are the session handlers' settings, mapped from the `session`
// section of the configuration by the caller. Handlers ask for them through
// a func only when they need them, so that most events parse no config.
type Options struct {
	// GuardOff is set when the user's (or a trusted project's)
	// configuration switched the guard off: the session start must not
	// tell the agent it is guarded.
	GuardOff bool
	// Phase guidance offered with the current phase, by phase name.
	Guidance map[string]string
	// Classes is the guidance offered on a prompt with its class, by
	// class name (package prompt).
	Classes map[string]string
	// VerifyBeforeStop holds back a stop once per batch of changed source
	// files that no test, build or lint run followed ([VerifyGate]).
	VerifyBeforeStop bool

	// WarnAt and EscalateAt are the strike counts that warn and escalate.
	WarnAt, EscalateAt int
	// Oracle is the host's name of the roster agent failures are escalated
	// to (agents.HostName; ""
	// none: the agent is told to diagnose and ask the user).
	Oracle string
	// EscalateTo is the agent a host's escalation names, given the host's
	// name (host.Host.EscalationAgent: the oracle when the host has it,
	// else a fallback it has, else ""), and whether that is a fallback;
	// nil: the oracle, unchecked (tests).
	EscalateTo func(host string) (agent string, fallback bool)

	// MaxBlocks is how many stops in a row may be blocked (kept below the
	// host's own cap of 8); StagnantTurns how many blocked stops without
	// progress end the blocking until progress is made.
	MaxBlocks, StagnantTurns int

	// MemoryBudget bounds the state block re-injected after compaction,
	// in bytes; StaleAfter is when an anchor counts as stale.
	MemoryBudget int
	// StartBudget bounds the session start's context (context.budget.start).
	StartBudget int
	StaleAfter  time.Duration
	// DropStale drops stale anchors instead of marking them.
	DropStale bool

	// RulesFile is the rules file at the project root; RulesRequired the
	// section headings it must have; RulesBudget bounds the injected rules.
	RulesFile     string
	RulesRequired []string
	RulesBudget   int

	// Identity.
	Persona  string
	Prefix   bool
	Announce bool
	// Agents are the roster's subagents the identity names (package
	// agents), in order.
	Agents []Agent
	// ContextWindow is the context window assumed, in tokens, when
	// neither the host nor the model says; ContextThresholds are the
	// percentages of it at which the monitor tells the agent, ascending
	// (none: the monitor is off).
	ContextWindow     int
	ContextThresholds []int
}

// Agent is one subagent of the roster as the session's text names it.
type Agent struct {
	ID   string // what the host's delegation tool takes: agents.HostName
	Name string // display name
	Role string // a few words on what it is for
}

// agent finds the roster agent of an id.
func (o Options) agent(id string) (Agent, bool) {
	for _, a := range o.Agents {
		if a.ID == id {
			return a, true
		}
	}
	return Agent{}, false
}

// hostBlockCap is Claude Code's cap on consecutive Stop blocks; atreides
// stays below it so that its own limit, not the host's override, ends the
// loop with a clean message.
const hostBlockCap = 8

// FromConfig maps the session section of the configuration, the context
// monitor's and context.work's. The caller adds what the configuration
// does not hold: the roster's agents (Agents, Oracle; see WithRoster).
func FromConfig(cfg *config.Config) Options {
	c, m, w := &cfg.Session, &cfg.Context.Monitor, &cfg.Context.Work
	return Options{
		GuardOff:      !cfg.Guard.Enabled,
		ContextWindow: m.WindowTokens, ContextThresholds: m.Thresholds,
		Guidance: map[string]string{
			"intent":         c.Phases.Intent,
			"assessment":     c.Phases.Assessment,
			"exploration":    c.Phases.Exploration,
			"implementation": c.Phases.Implementation,
			"verification":   c.Phases.Verification,
		},
		Classes: map[string]string{
			"question": w.Classes.Question, "bugfix": w.Classes.Bugfix, "feature": w.Classes.Feature,
			"refactor": w.Classes.Refactor, "review": w.Classes.Review, "research": w.Classes.Research,
			"chore": w.Classes.Chore,
		},
		VerifyBeforeStop: w.VerifyBeforeStop,
		WarnAt:           c.Strikes.Warn, EscalateAt: c.Strikes.Escalate,
		MaxBlocks: c.Stop.MaxBlocks, StagnantTurns: c.Stop.StagnantTurns,
		MemoryBudget: c.Memory.Budget, StartBudget: cfg.Context.Budget.Start, StaleAfter: time.Duration(c.Memory.StaleHours) * time.Hour, DropStale: c.Memory.DropStale,
		RulesFile: c.Rules.File, RulesRequired: c.Rules.Required, RulesBudget: c.Rules.Budget,
		Persona: c.Identity.Name, Prefix: c.Identity.Prefix, Announce: c.Identity.Announce,
	}
}

// WithRoster names the roster's subagents and its oracle. An incomplete
// agent is left out (the roster's error is reported by install and
// 'config validate').
func (o Options) WithRoster(r agents.Roster) Options {
	o.Agents, o.Oracle = nil, ""
	for _, a := range r.Subagents() {
		o.Agents = append(o.Agents, Agent{ID: a.HostName(), Name: a.Name, Role: roleWords(a.Role)})
	}
	if a, ok := r.Oracle(); ok {
		o.Oracle = a.HostName()
	}
	return o
}

// roleWords says what a role is for, in the identity's list.
func roleWords(role string) string {
	switch role {
	case "oracle":
		return "oracle: diagnosis and hard decisions"
	case "explore":
		return "codebase search"
	case "librarian":
		return "docs and references"
	case "build":
		return "implementation"
	case "plan":
		return "planning"
	}
	return role
}

// The context budgets where no configuration says: the defaults of
// session.memory.budget and context.budget.start (issue 35: a session
// start of at most 600 bytes, a state block after compaction of at most
// 1,200).
const (
	defaultMemoryBudget = 1200
	defaultStartBudget  = 600
)

// defaultStaleAfter is when an anchor is stale where no configuration
// says (session.memory.stale_hours' default).
const defaultStaleAfter = 48 * time.Hour

// normalize clamps values the rest of the package relies on.
func (o Options) normalize() Options {
	if o.MaxBlocks >= hostBlockCap {
		o.MaxBlocks = hostBlockCap - 1
	}
	if o.MaxBlocks < 0 {
		o.MaxBlocks = 0
	}
	if o.StagnantTurns <= 0 {
		o.StagnantTurns = 3
	}
	if o.WarnAt <= 0 {
		o.WarnAt = 2
	}
	if o.EscalateAt <= o.WarnAt {
		o.EscalateAt = o.WarnAt + 1
	}
	if o.MemoryBudget <= 0 {
		o.MemoryBudget = defaultMemoryBudget
	}
	if o.StartBudget <= 0 {
		o.StartBudget = defaultStartBudget
	}
	if o.StaleAfter <= 0 {
		o.StaleAfter = defaultStaleAfter
	}
	if o.RulesBudget <= 0 {
		o.RulesBudget = 6000
	}
	if o.RulesFile == "" {
		o.RulesFile = "AGENTS.md"
	}
	return o
}

// OptionsFunc returns the options; it is called only when a handler needs
// them.
type OptionsFunc func() Options
