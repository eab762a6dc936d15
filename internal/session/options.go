package session

import "time"

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
	// Oracle is the id of the roster agent failures are escalated to (""
	// none: the agent is told to diagnose and ask the user).
	Oracle string

	// MaxBlocks is how many stops in a row may be blocked (kept below the
	// host's own cap of 8); StagnantTurns how many blocked stops without
	// progress end the blocking until progress is made.
	MaxBlocks, StagnantTurns int

	// MemoryBudget bounds the state block re-injected after compaction,
	// in bytes; StaleAfter is when an anchor counts as stale.
	MemoryBudget int
	StaleAfter   time.Duration
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
	ID   string // what the host's delegation tool takes
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

// DefaultOptions are the built-in defaults, the same values as the config
// defaults; tests and a config that cannot be read use them.
func DefaultOptions() Options {
	return Options{
		Guidance: map[string]string{
			"intent":         "Restate what the user asked for and what done looks like before touching files.",
			"assessment":     "Read the relevant code and constraints first; decide on an approach before editing.",
			"exploration":    "Gather just enough context; prefer targeted searches over reading everything.",
			"implementation": "Make small, focused changes; keep the build green; no unrelated edits.",
			"verification":   "Run the tests, build and linters; fix what fails before reporting done.",
		},
		Classes: map[string]string{
			"question": "The user asked a question: answer it from the code and the facts, citing files and lines; change no files unless asked to.",
			"bugfix":   "A bug fix: reproduce the failure first (a failing test or command), then fix its cause, then keep a test that proves the fix.",
			"feature":  "A feature: settle the expected behaviour, build it in small steps, add tests for it, and update user-facing docs.",
			"refactor": "A refactor: behaviour must not change; run the tests before and after, and change structure only.",
			"review":   "A review: read, then report findings by severity with file:line; change no files unless asked to.",
			"research": "Research: investigate and report what you found with evidence (files, commands, sources); change no files.",
			"chore":    "A chore: keep the change mechanical and minimal, then check that the build still passes.",
		},
		VerifyBeforeStop: true,
		WarnAt:           2, EscalateAt: 3,
		Oracle:    "stilgar",
		MaxBlocks: 3, StagnantTurns: 3,
		MemoryBudget: 4000, StaleAfter: 48 * time.Hour,
		RulesFile: "AGENTS.md", RulesBudget: 6000,
		Persona: "Muad'Dib", Announce: true,
		ContextWindow: 200_000, ContextThresholds: []int{70, 85},
		Agents: []Agent{
			{ID: "build", Name: "Build", Role: "implementation"}, {ID: "explore", Name: "Explore", Role: "codebase search"},
			{ID: "librarian", Name: "Librarian", Role: "docs and references"}, {ID: "plan", Name: "Plan", Role: "planning"},
			{ID: "stilgar", Name: "Stilgar", Role: "oracle: diagnosis and hard decisions"},
		},
	}
}

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
		o.MemoryBudget = 4000
	}
	if o.StaleAfter <= 0 {
		o.StaleAfter = 48 * time.Hour
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
