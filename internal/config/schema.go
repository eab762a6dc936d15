package config

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"
)

// The schema is the Config struct itself: the loader walks each file's YAML
// alongside these types by reflection, so a new section is one new field
// with a `yaml` tag and no change to the loader. Three optional hooks carry
// the rules a type cannot express:
//
//   - a scalar type implements textChecker to restrict its values (enums,
//     globs);
//   - an int field takes `min` and `max` tags;
//   - a struct type implements mappingChecker to check its fields together
//     (required fields, mutually exclusive fields, per-item defaults).

// Config is the merged, validated configuration. Treat it as read-only:
// it is shared by every caller of [Lazy.Get].
type Config struct {
	Version int `yaml:"version"`
	// Preset is how much of atreides the project runs (hooks and install).
	Preset  Preset  `yaml:"preset"`
	Audit   Audit   `yaml:"audit"`
	Guard   Guard   `yaml:"guard"`
	Rules   []Rule  `yaml:"rules"`
	Session Session `yaml:"session"`
	Hooks   Hooks   `yaml:"hooks"`

	Governance Governance `yaml:"governance"`
	Delegation Delegation `yaml:"delegation"`
	State      State      `yaml:"state"`
	Context    Context    `yaml:"context"`
	Background Background `yaml:"background"`
	Tasks      Tasks      `yaml:"tasks"`
	// Review is the multi-model review (package review).
	Review Review `yaml:"review"`
	// Agents is the roster by id (package agents).
	Agents map[string]Agent `yaml:"agents"`
	// Export is the session export (package export).
	Export Export `yaml:"export"`
	// Project names the project across machines (package fleet).
	Project Project `yaml:"project"`
	// Store is where the state lives (packages store and fleet).
	Store Store `yaml:"store"`
	// Otel is the OpenTelemetry span spool and its exporter (package spans).
	Otel Otel `yaml:"otel"`

	// root is the merged value tree with the source of every value; the
	// fields above are a typed copy of it. [Builtin]'s has none until
	// asked for (see tree): a hook that reads a setting never builds it.
	root *value
	// builtin marks [Builtin]'s configuration, whose tree is the defaults'.
	builtin bool
	// fallback marks a [Fallback] configuration.
	fallback bool
	// notes are the retired keys the files still set (see retiredKey).
	notes []FieldError
	// trust is what the project file's trust did (trust.go).
	trust Trust
}

// Notes are the retired keys the files still set: skipped, not errors,
// but worth telling the user so the file can be cleaned up.
func (c *Config) Notes() []FieldError { return c.notes }

// Preset names how much of atreides a project runs: its hooks' handlers
// and what install writes besides the hooks. Each preset runs everything
// the ones before it run: guard, then standard, then full.
type Preset string

// The presets, from the least to the most.
const (
	// PresetGuard is the guard and the audit trail only: the agent hears
	// from atreides only when a call is blocked.
	PresetGuard Preset = "guard"
	// PresetStandard adds what keeps a long session on track: todos and
	// the stop gate, strikes, compaction memory, nested rules, output cuts.
	PresetStandard Preset = "standard"
	// PresetFull is everything, the roster and slash commands included.
	PresetFull Preset = "full"
)

// Presets are the presets, from the least to the most.
func Presets() []Preset { return []Preset{PresetGuard, PresetStandard, PresetFull} }

func (Preset) values() []string {
	return []string{string(PresetGuard), string(PresetStandard), string(PresetFull)}
}

func (v Preset) checkText(s string) string { return oneOf(s, v.values()...) }

// level orders the presets. A value the schema does not know (a zero
// Config) is full, today's behaviour, as the defaults say.
func (p Preset) level() int {
	switch p {
	case PresetGuard:
		return 0
	case PresetStandard:
		return 1
	}
	return 2
}

// Runs reports whether a project of preset p runs what preset q brings:
// full runs everything, guard only guard's.
func (p Preset) Runs(q Preset) bool { return p.level() >= q.level() }

// Export configures the session export written at SessionEnd (package
// export; `atreides export` writes one on demand).
type Export struct {
	// OnSessionEnd writes the session's document when its host ends it.
	OnSessionEnd bool `yaml:"on_session_end"`
	// Dir is where, relative to the project root.
	Dir string `yaml:"dir"`
	// Keep bounds the documents kept there; the oldest go first. 0 keeps
	// every one.
	Keep int `yaml:"keep" min:"0" max:"100000"`
}

// Project is the project's identity across checkouts.
type Project struct {
	// ID names the project in a shared store; empty: the hash of the
	// repository's first commit.
	ID ProjectID `yaml:"id"`
}

// ProjectID is a project's id: short, printable, no spaces, since it is
// a key in a database and appears in messages.
type ProjectID string

func (ProjectID) checkText(s string) string {
	if len(s) > 200 {
		return "at most 200 characters"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-:", r)) {
			return fmt.Sprintf("%q is not allowed: use letters, digits and . _ - :", r)
		}
	}
	return ""
}

// Store selects the state's back end.
type Store struct {
	// Backend is bbolt (a file of this machine's) or postgres (shared).
	Backend StoreBackend `yaml:"backend"`
	// DSN is the database's connection string; ATREIDES_STORE_DSN wins.
	DSN string `yaml:"dsn"`
}

// StoreBackend names a store back end.
type StoreBackend string

func (StoreBackend) values() []string { return []string{"bbolt", "postgres"} }

func (v StoreBackend) checkText(s string) string { return oneOf(s, v.values()...) }

// Otel configures the span spool the hooks append to and the OTLP
// exporter that ships it (packages spans and otlpexport).
type Otel struct {
	Enabled bool `yaml:"enabled"`
	// Endpoint is the OTLP/HTTP base URL; empty: the environment's.
	Endpoint string `yaml:"endpoint"`
	// Headers are sent with every export; their values are secrets.
	Headers  map[string]string `yaml:"headers"`
	SpoolMiB int               `yaml:"spool_mib" min:"1" max:"4096"`
}

// Audit configures the audit trail (package audit).
type Audit struct {
	// MaxMiB bounds the trail on disk, all its segments together.
	MaxMiB int `yaml:"max_mib" min:"1" max:"4096"`
}

// Guard configures the command, path and secret guards. Rule ids, group
// names and switches belong to the guard package, which validates them
// with [Config.ErrorAt].
type Guard struct {
	Enabled  bool               `yaml:"enabled"`
	Disable  []string           `yaml:"disable"`
	Verdicts map[string]Verdict `yaml:"verdicts"`
	Groups   []string           `yaml:"groups"`
	// Switches keeps each value's YAML text (true, 3, name): the guard
	// knows each switch's type, this package does not.
	Switches map[string]string `yaml:"switches"`
	// Production names the environments whose changes the guard asks
	// about (guard.Production).
	Production Production `yaml:"production"`
}

// Production is guard.production: the names, or path.Match globs, of
// production environments, by the kind of word that names them in a
// command. The guard reads the lists as one set; they are kept apart so
// a user's file reads like the tools' own options.
type Production struct {
	Contexts    []ProdName `yaml:"contexts"`
	Namespaces  []ProdName `yaml:"namespaces"`
	Hosts       []ProdName `yaml:"hosts"`
	Inventories []ProdName `yaml:"inventories"`
	Stacks      []ProdName `yaml:"stacks"`
}

// ProdName is a production environment's name or a path.Match glob
// (`*-prd`); a bad glob would never match, so it is refused here.
type ProdName string

func (ProdName) checkText(s string) string {
	if strings.TrimSpace(s) == "" {
		return "empty name"
	}
	if _, err := path.Match(s, ""); err != nil {
		return fmt.Sprintf("%q is not a valid glob (path.Match syntax: * ? [a-z])", s)
	}
	return ""
}

// Rule is one user rule: a verdict for a tool call whose shell command
// starts with Command, or whose path matches the Path glob.
type Rule struct {
	Verdict Verdict `yaml:"verdict"`
	Tool    Tool    `yaml:"tool"`
	Command string  `yaml:"command"`
	Path    Glob    `yaml:"path"`
	Reason  string  `yaml:"reason"`
}

// Session configures the session handlers.
type Session struct {
	Identity Identity     `yaml:"identity"`
	Stop     Stop         `yaml:"stop"`
	Phases   Phases       `yaml:"phases"`
	Strikes  Strikes      `yaml:"strikes"`
	Memory   Memory       `yaml:"memory"`
	Rules    SessionRules `yaml:"rules"`
}

// Identity is how the agent is addressed.
type Identity struct {
	Name     string `yaml:"name"`
	Prefix   bool   `yaml:"prefix"`
	Announce bool   `yaml:"announce"`
}

// Stop limits how often a Stop event may be blocked in a row. The session
// handlers keep max_blocks below Claude Code's own cap of 8.
type Stop struct {
	MaxBlocks     int `yaml:"max_blocks" min:"0" max:"100"`
	StagnantTurns int `yaml:"stagnant_turns" min:"1" max:"20"`
}

// Phases is the guidance offered with each workflow phase.
type Phases struct {
	Intent         string `yaml:"intent"`
	Assessment     string `yaml:"assessment"`
	Exploration    string `yaml:"exploration"`
	Implementation string `yaml:"implementation"`
	Verification   string `yaml:"verification"`
}

// Strikes configures error recovery: the consecutive failures of one
// target that warn and that escalate to the oracle agent.
type Strikes struct {
	Warn     int `yaml:"warn" min:"1" max:"20"`
	Escalate int `yaml:"escalate" min:"2" max:"20"`
}

// Memory configures what survives compaction.
type Memory struct {
	Budget     int  `yaml:"budget" min:"500" max:"9000"`
	StaleHours int  `yaml:"stale_hours" min:"1" max:"8760"`
	DropStale  bool `yaml:"drop_stale"`
}

// SessionRules configures the project rules file injected at session start.
type SessionRules struct {
	File     string   `yaml:"file"`
	Required []string `yaml:"required"`
	Budget   int      `yaml:"budget" min:"500" max:"9000"`
}

// Agent is one agent of the roster (package agents, which checks that an
// enabled agent is complete: a layer may set a single field of one).
type Agent struct {
	Enabled     bool              `yaml:"enabled"`
	Name        string            `yaml:"name"`
	Role        AgentRole         `yaml:"role"`
	Mode        AgentMode         `yaml:"mode"`
	Description string            `yaml:"description"`
	Prompt      string            `yaml:"prompt"`
	Tools       AgentTools        `yaml:"tools"`
	Model       map[string]string `yaml:"model"`
	// Variant is the model variant (thinking effort) of the first message
	// of a main session this agent leads, on hosts that have variants
	// (OpenCode); "" sets none.
	Variant string   `yaml:"variant"`
	Skills  []string `yaml:"skills"`
}

// AgentRole is what an agent is for; "" is other.
type AgentRole string

func (AgentRole) values() []string {
	return []string{"orchestrator", "oracle", "explore", "librarian", "build", "plan", "other"}
}

func (v AgentRole) checkText(s string) string { return oneOf(s, v.values()...) }

// AgentMode is primary (a lead agent) or subagent; "" is subagent.
type AgentMode string

func (AgentMode) values() []string { return []string{"primary", "subagent"} }

func (v AgentMode) checkText(s string) string { return oneOf(s, v.values()...) }

// AgentTools is an agent's tool permission; "" is read-only.
type AgentTools string

func (AgentTools) values() []string { return []string{"read-only", "read-web", "plans-only", "full"} }

func (v AgentTools) checkText(s string) string { return oneOf(s, v.values()...) }

// Hooks is what 'atreides install' writes for hook processes (read by
// install only: the hook takes its timeout from its command line).
type Hooks struct {
	TimeoutSeconds int `yaml:"timeout_seconds" min:"1" max:"600"`
}

// Comments configures the comment checker (package comments): a note after
// a write or edit whose added lines are mostly comments, or hold notes
// about the change.
type Comments struct {
	Enabled      bool `yaml:"enabled"`
	RatioPercent int  `yaml:"ratio_percent" min:"1" max:"100"`
	MinLines     int  `yaml:"min_lines" min:"1" max:"10000"`
}

// State configures what atreides keeps in .atreides/state.db.
type State struct {
	// SessionRetentionDays: a session with no event for longer is removed
	// (at a session start, at most once a day); 0 keeps every session.
	SessionRetentionDays int `yaml:"session_retention_days" min:"0" max:"3650"`
}

// ContextOutput configures the cutting of large tool outputs (package
// outputs): limits in bytes by kind of tool, 0 for none.
type ContextOutput struct {
	Shell  int `yaml:"shell" min:"0" max:"1000000"`
	Search int `yaml:"search" min:"0" max:"1000000"`
	Fetch  int `yaml:"fetch" min:"0" max:"1000000"`
	MCP    int `yaml:"mcp" min:"0" max:"1000000"`
	// KeepFiles and KeepMiB bound the saved whole outputs.
	KeepFiles int `yaml:"keep_files" min:"1" max:"10000"`
	KeepMiB   int `yaml:"keep_mib" min:"1" max:"10000"`
}

// Governance configures intents, owned scopes, intent locks and the trace
// ledger. Off by default.
type Governance struct {
	Enabled bool `yaml:"enabled"`
	// LeaseMinutes is how long an intent stays held by a session that does
	// nothing; after it, another session may take the intent.
	LeaseMinutes int `yaml:"lease_minutes" min:"1" max:"10080"`
	// UnknownWrites is the verdict for a shell command whose write targets
	// cannot be known from its syntax ("> $OUT", "git checkout main").
	UnknownWrites Verdict `yaml:"unknown_writes"`
	// Exempt globs may be written without an intent and outside any scope.
	Exempt []Glob `yaml:"exempt"`
	// Trace appends an Agent Trace record per file change to .atreides/trace.jsonl.
	Trace bool `yaml:"trace"`
}

// Delegation limits delegations to subagents on every host, whatever the
// governance setting (package delegation).
type Delegation struct {
	MaxDepth int `yaml:"max_depth" min:"1" max:"10"`
	// DeadlineMinutes per agent type; "*" applies to every other type; 0
	// is none.
	DeadlineMinutes map[string]int `yaml:"deadline_minutes"`
	// Redirect sends a delegation to the key's agent type to the value's.
	Redirect map[string]string `yaml:"redirect"`
	// RequireTodo refuses a delegation while the session has no open todo.
	RequireTodo bool `yaml:"require_todo"`
	// StructuredReturn lists the agent types whose final message must be
	// the return object ("*" for all).
	StructuredReturn []string `yaml:"structured_return"`
}

// Context configures what atreides puts into, and keeps out of, the
// agent's context, one subsection per feature.
type Context struct {
	Budget          ContextBudget   `yaml:"budget"`
	ReadBeforeWrite ReadBeforeWrite `yaml:"read_before_write"`
	Checks          Checks          `yaml:"checks"`
	Monitor         ContextMonitor  `yaml:"monitor"`
	Keywords        ContextKeywords `yaml:"keywords"`
	Work            ContextWork     `yaml:"work"`
	Comments        Comments        `yaml:"comments"`
	Rules           ContextRules    `yaml:"rules"`
	Output          ContextOutput   `yaml:"output"`
	Tiers           ContextTiers    `yaml:"tiers"`
}

// ContextTiers are the budgets, in bytes, of the context files loaded by
// tier (package ctxtiers): the lead agent's minimal set at session
// start, a slash command's set when it runs, an agent's set when it
// starts.
type ContextTiers struct {
	Enabled bool `yaml:"enabled"`
	Session int  `yaml:"session" min:"0" max:"9000"`
	Command int  `yaml:"command" min:"0" max:"9000"`
	Agent   int  `yaml:"agent" min:"0" max:"9000"`
}

// ContextBudget bounds what atreides puts before the model, in bytes
// (package ctxbudget): a whole session (0: no bound) and its start.
type ContextBudget struct {
	Session int `yaml:"session" min:"0" max:"10000000"`
	Start   int `yaml:"start" min:"200" max:"9000"`
}

// ReadBeforeWrite is the read-before-write mode: off, note or block.
type ReadBeforeWrite string

func (ReadBeforeWrite) values() []string { return []string{"off", "note", "block"} }

func (v ReadBeforeWrite) checkText(s string) string { return oneOf(s, v.values()...) }

// Checks are the commands run after an edit (package editcheck).
type Checks struct {
	BudgetMS int     `yaml:"budget_ms" min:"100" max:"600000"`
	Run      []Check `yaml:"run"`
}

// Check is one command run after an edit of a file matching its globs.
type Check struct {
	Globs        []Glob `yaml:"globs"`
	Command      string `yaml:"command"`
	TimeoutMS    int    `yaml:"timeout_ms" min:"0" max:"600000"`
	FailOnOutput bool   `yaml:"fail_on_output"`
}

func (Check) checkMapping(m *mappingCheck) {
	if g := m.get("globs"); !m.has("globs") || g != nil && g.kind == kindList && len(g.items) == 0 {
		m.errorf("a check needs globs: the files it runs after")
	}
	if c := m.get("command"); !m.has("command") || c != nil && strings.TrimSpace(c.scalar.(string)) == "" {
		m.errorf("a check needs a command")
	}
}

// ContextKeywords configures keyword modes and OpenCode's first-message
// variant.
type ContextKeywords struct {
	// Modes by name: a map, so that a layer adds, changes or (with ~)
	// removes one mode without repeating the others.
	Modes map[string]KeywordMode `yaml:"modes"`
	// Variant is the model variant OpenCode's first message of a main
	// session gets when none was chosen; "" sets none.
	Variant string `yaml:"variant"`
}

// KeywordMode is a block of context added when the user's prompt names
// one of its keywords. A mode without keywords or text never fires.
type KeywordMode struct {
	Keywords []Keyword       `yaml:"keywords"`
	Text     string          `yaml:"text"`
	Priority ContextPriority `yaml:"priority"`
	Once     bool            `yaml:"once"`
}

// Keyword is a word, or words, matched in a prompt's prose.
type Keyword string

func (Keyword) checkText(s string) string {
	if strings.TrimSpace(s) == "" {
		return "empty keyword"
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ' ' {
			return fmt.Sprintf("%q: a keyword is letters, digits and spaces (prompts are matched on whole words)", s)
		}
	}
	return ""
}

// ContextPriority is a context entry's priority; "" is normal.
type ContextPriority string

func (ContextPriority) values() []string { return []string{"critical", "high", "normal", "low"} }

func (v ContextPriority) checkText(s string) string { return oneOf(s, v.values()...) }

// ContextWork configures what the phase tracker does with the kind of
// work a prompt asks for, and the nudge to verify before stopping.
type ContextWork struct {
	// VerifyBeforeStop holds back, once per batch of changes, a stop with
	// source files changed since the last test, build or lint run.
	VerifyBeforeStop bool `yaml:"verify_before_stop"`
	// Classes is the guidance offered with each class of prompt.
	Classes WorkClasses `yaml:"classes"`
}

// WorkClasses is the guidance for each class of prompt (package prompt).
type WorkClasses struct {
	Question string `yaml:"question"`
	Bugfix   string `yaml:"bugfix"`
	Feature  string `yaml:"feature"`
	Refactor string `yaml:"refactor"`
	Review   string `yaml:"review"`
	Research string `yaml:"research"`
	Chore    string `yaml:"chore"`
}

// Verdict is a guard answer.
type Verdict string

// The verdicts, weakest first.
const (
	Allow Verdict = "allow"
	Ask   Verdict = "ask"
	Deny  Verdict = "deny"
)

func (Verdict) values() []string { return []string{"allow", "ask", "deny"} }

func (v Verdict) checkText(s string) string { return oneOf(s, v.values()...) }

// Tool is a normalized tool name, or AnyTool.
type Tool string

// AnyTool matches every tool; it is a rule's default.
const AnyTool Tool = "*"

func (Tool) values() []string {
	return []string{"shell", "read", "write", "edit", "search", "fetch", "delegate", "*"}
}

func (v Tool) checkText(s string) string { return oneOf(s, v.values()...) }

// Glob is a doublestar pattern matched against slash-separated paths.
type Glob string

func (Glob) checkText(s string) string {
	if s == "" {
		return "empty glob"
	}
	if !doublestar.ValidatePattern(s) {
		return fmt.Sprintf("%q is not a valid glob", s)
	}
	return ""
}

func (Config) checkMapping(m *mappingCheck) {
	if v := m.get("version"); v != nil && v.kind == kindScalar && v.scalar != 1 {
		m.errorAt("version", fmt.Sprintf("%v is not supported (this atreides reads version 1)", v.scalar))
	}
}

func (Rule) checkMapping(m *mappingCheck) {
	// Presence is tested with has, not get: a present but invalid value
	// has already been reported and must not also read as missing.
	if !m.has("verdict") {
		m.errorf("a rule needs a verdict (allow, ask or deny)")
	}
	switch {
	case m.has("command") && m.has("path"):
		m.errorAt("path", "a rule takes command or path, not both")
	case !m.has("command") && !m.has("path"):
		m.errorf("a rule needs a command (prefix) or a path (glob)")
	}
	if c := m.get("command"); c != nil && strings.TrimSpace(c.scalar.(string)) == "" {
		// An empty prefix would match every command.
		m.errorAt("command", "empty command prefix")
	}
	if t := m.get("tool"); t != nil && m.has("command") {
		if s := t.scalar.(string); s != "shell" && s != string(AnyTool) {
			m.errorAt("tool", fmt.Sprintf("command rules apply to tool shell, not %q", s))
		}
	}
	if !m.has("tool") {
		m.setDefault("tool", string(AnyTool))
	}
}

// enumerated is a text type with a fixed set of values: checkText
// refuses the others, and the JSON Schema lists them (jsonschema.go).
type enumerated interface{ values() []string }

func oneOf(s string, allowed ...string) string {
	if slices.Contains(allowed, s) {
		return ""
	}
	return fmt.Sprintf("%q is not one of %s", s, strings.Join(allowed, ", "))
}

// ContextMonitor configures the context-window monitor (package session's
// Monitor, over package usage).
type ContextMonitor struct {
	// WindowTokens is the window assumed when neither the host nor the
	// model says how large it is.
	WindowTokens int `yaml:"window_tokens" min:"1000" max:"100000000"`
	// Thresholds are the percentages of the window at which the agent is
	// told, ascending; the last asks it to compact.
	Thresholds []int `yaml:"thresholds"`
	// CompactionPrompt replaces OpenCode's compaction prompt ("" keeps
	// OpenCode's own).
	CompactionPrompt string `yaml:"compaction_prompt"`
}

func (ContextMonitor) checkMapping(m *mappingCheck) {
	v := m.get("thresholds")
	if v == nil {
		return
	}
	prev := 0
	for _, it := range v.items {
		n, _ := it.scalar.(int)
		switch {
		case n < 1 || n > 99:
			m.errorAt("thresholds", fmt.Sprintf("%d is not a percentage between 1 and 99", n))
			return
		case n <= prev:
			m.errorAt("thresholds", "percentages must be in ascending order, each once")
			return
		}
		prev = n
	}
}

// ContextRules configures the rules injected when a file is read or
// written (package rulefiles).
type ContextRules struct {
	Enabled bool `yaml:"enabled"`
	// Readme adds each directory's README.md besides its rules file.
	Readme bool `yaml:"readme"`
	// Budget is the most bytes of rules one tool call brings.
	Budget int `yaml:"budget" min:"500" max:"9000"`
	// Dirs are the project-relative directories of conditional rules.
	Dirs []string `yaml:"dirs"`
}

// Background configures background tasks (package background): how many
// run at once, the headless command each host's tasks run as, and how
// long and how much of them is kept.
type Background struct {
	// Key is what tasks queue by: "agent" (the roster agent or category
	// the task runs as) or "provider" (the host's model provider, so all
	// of a host's tasks share one limit).
	Key         BackgroundKey         `yaml:"key"`
	Concurrency BackgroundConcurrency `yaml:"concurrency"`
	// Commands are the headless command of each host, as an argv
	// template; Resume the one that continues an earlier task's session.
	Commands map[string][]string `yaml:"commands"`
	Resume   map[string][]string `yaml:"resume"`
	// TimeoutMinutes: a task running longer is killed and failed.
	TimeoutMinutes int `yaml:"timeout_minutes" min:"1" max:"1440"`
	// SummaryBytes bounds the result kept in the project state per task.
	SummaryBytes int `yaml:"summary_bytes" min:"100" max:"16384"`
	// WaitSeconds bounds background_output's wait and a synchronous
	// delegate_task's.
	WaitSeconds int  `yaml:"wait_seconds" min:"1" max:"3600"`
	Notify      bool `yaml:"notify"`
	// OpenCode times the OpenCode runner.
	OpenCode BackgroundOpenCode `yaml:"opencode"`
	// Categories are the kinds of work delegate_task may name instead of
	// an agent, with their tools, model by host and operation.
	Categories map[string]BackgroundCategory `yaml:"categories"`
	// Timeouts are the minutes a task may run, by operation (research,
	// planning, implementation, simple): past it the task is stopped, its
	// partial output kept and the task left resumable.
	Timeouts map[string]int `yaml:"timeouts"`
	// Structured asks every task for the return object (status, summary,
	// artifacts, ...); an invalid one is sent back to the task once.
	Structured bool `yaml:"structured"`
}

// Review configures the multi-model review: the same review prompt run
// by several reviewers through the background runner, their findings
// merged by agreement (package review).
type Review struct {
	// Reviewers are who reviews: a host and, optionally, its model. Empty:
	// every host whose headless command (background.commands) is on PATH.
	Reviewers []Reviewer `yaml:"reviewers"`
	// Agent is the roster agent each reviewer runs as; a read-only one,
	// so that a review never edits the code it reviews.
	Agent string `yaml:"agent"`
	// TimeoutMinutes bounds a whole review; a reviewer not done by then
	// is cancelled and named in the report.
	TimeoutMinutes int `yaml:"timeout_minutes" min:"1" max:"1440"`
}

// Reviewer is one reviewer of a multi-model review.
type Reviewer struct {
	Host  string `yaml:"host"`
	Model string `yaml:"model"`
}

// BackgroundCategory is one category of delegate_task: the host's
// default agent with these tools, this model by host ("" or absent: the
// launching agent's, else the CLI's own) and this operation's timeout.
type BackgroundCategory struct {
	Tools     AgentTools          `yaml:"tools"`
	Model     map[string]string   `yaml:"model"`
	Operation BackgroundOperation `yaml:"operation"`
}

// BackgroundOperation is the kind of work a task does, which sets its
// timeout (004's delegation safety).
type BackgroundOperation string

func (BackgroundOperation) values() []string {
	return []string{"research", "planning", "implementation", "simple"}
}

func (v BackgroundOperation) checkText(s string) string { return oneOf(s, v.values()...) }

// BackgroundOpenCode times the OpenCode runner: how often the plugin
// looks at the child sessions, and when a child is complete or stale.
type BackgroundOpenCode struct {
	PollMS       int `yaml:"poll_ms" min:"100" max:"60000"`
	StableMS     int `yaml:"stable_ms" min:"0" max:"600000"`
	StaleSeconds int `yaml:"stale_seconds" min:"10" max:"86400"`
}

// BackgroundConcurrency is the number of tasks of one key that may run
// at once: Keys by key, Default for the others.
type BackgroundConcurrency struct {
	Default int            `yaml:"default" min:"1" max:"100"`
	Keys    map[string]int `yaml:"keys"`
}

// BackgroundKey is what background tasks queue by.
type BackgroundKey string

func (BackgroundKey) values() []string { return []string{"agent", "provider"} }

func (v BackgroundKey) checkText(s string) string { return oneOf(s, v.values()...) }

// Tasks configures the task system (package tasks).
type Tasks struct {
	// Dir is the specs directory, relative to the project root.
	Dir   string     `yaml:"dir"`
	Plans TasksPlans `yaml:"plans"`
	// Commits are the scoped commits after a task or a phase completes.
	Commits TaskCommits `yaml:"commits"`
	// Routing names the agents that research and implement a task, by
	// the task's language.
	Routing TaskRouting `yaml:"routing"`
}

// TasksPlans is tasks.plans: approval and verification of plans.
type TasksPlans struct {
	// RequireApproval gates the writes of a task in progress on the
	// user's approval of its current plan.
	RequireApproval bool `yaml:"require_approval"`
	// Verify is the default verification command of a phase.
	Verify string `yaml:"verify"`
	// VerifyTimeoutSeconds bounds a verification run.
	VerifyTimeoutSeconds int `yaml:"verify_timeout_seconds" min:"1" max:"86400"`
}

// TaskCommits configures the scoped commits (package tasks).
type TaskCommits struct {
	Enabled bool `yaml:"enabled"`
}

// TaskRouting is the agents a task goes to: Languages by language, Default
// for a language not listed or not known.
type TaskRouting struct {
	Default   TaskRoute            `yaml:"default"`
	Languages map[string]TaskRoute `yaml:"languages"`
}

// TaskRoute names roster agents by id (the agents section); "" takes the
// default route's.
type TaskRoute struct {
	Research  string `yaml:"research"`
	Implement string `yaml:"implement"`
	// MCP are the MCP servers (by name) the language's agents work with;
	// each is looked for in the host's configuration when the language is
	// routed, and a missing one logged once to the error log (errors.json)
	// with the fallback: the agent works without it.
	MCP []string `yaml:"mcp"`
}
