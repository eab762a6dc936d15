package delegation

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
)

// RosterTypes is the structured_return entry that stands for every agent
// of atreides's roster ("atreides-<id>" on the host): the agents the
// orchestrator delegates to, whose answers it reads instead of their
// work.
const RosterTypes = "roster"

// Options are the delegation settings, mapped from the configuration's
// delegation section (and the operation table, background.timeouts) by
// the caller.
type Options struct {
	// MaxDepth is the deepest nesting allowed (the main agent is depth 0);
	// 0 is no limit.
	MaxDepth int
	// Deadlines by agent type, which override the operation's time; "*"
	// for the rest; 0 is none.
	Deadlines map[string]time.Duration
	// Timeouts are the operations' times: a subagent's deadline unless
	// Deadlines names its type.
	Timeouts Timeouts
	// Roles are the roster's subagents' roles by id, which give a roster
	// agent its operation.
	Roles map[string]string
	// Redirect maps an agent type to the type a delegation to it goes to.
	Redirect map[string]string
	// RequireTodo refuses a delegation while the session has no open todo.
	RequireTodo bool
	// StructuredReturn lists the agent types ("*" for all, [RosterTypes]
	// for the roster's) whose final message must be the return object.
	StructuredReturn []string
}

// OptionsFunc returns the options on first use.
type OptionsFunc func() Options

// Deadline is how long a subagent of the type may run before it is
// stopped: delegation.deadline_minutes when it names the type (or "*"),
// else the time of the type's operation; 0 is no deadline.
func (o *Options) Deadline(agentType string) time.Duration {
	for _, t := range typeNames(agentType) {
		if d, ok := o.Deadlines[t]; ok {
			return d
		}
	}
	if d, ok := o.Deadlines["*"]; ok {
		return d
	}
	return o.Timeouts.Of(o.Operation(agentType))
}

// Operation is what a subagent of the type does: a roster agent's by its
// role, a host's own agent's by its type ([builtinOperation]).
func (o *Options) Operation(agentType string) string {
	if id, ok := rosterID(agentType); ok {
		if role, ok := o.Roles[id]; ok {
			return OperationOf(role)
		}
	}
	return builtinOperation(agentType)
}

// rosterID is the roster id of one of atreides's agents by the name the
// host gave ("atreides-explore", "atreides:atreides-explore"); false for a
// host's own agent type.
func rosterID(agentType string) (string, bool) {
	name := strings.TrimPrefix(agentType, agents.PluginNamespace)
	id := agents.IDOf(name)
	return id, id != name
}

// typeNames are the keys a setting for an agent type is looked up under:
// the type the host named and, for one of atreides's agents
// ("atreides-explore"), its roster id too, so a configuration that names
// the roster's ids (or was written before the prefix) still applies.
func typeNames(agentType string) []string {
	if id := agents.IDOf(agentType); id != agentType {
		return []string{agentType, id}
	}
	return []string{agentType}
}

// RedirectOf is where a delegation to the agent type goes instead, ""
// for nowhere else.
func (o *Options) RedirectOf(agentType string) string {
	for _, t := range typeNames(agentType) {
		if to := o.Redirect[t]; to != "" {
			return to
		}
	}
	return ""
}

// Structured reports whether agents of the type must end with the return
// object.
func (o *Options) Structured(agentType string) bool {
	if slices.Contains(o.StructuredReturn, "*") {
		return true
	}
	if _, ok := rosterID(agentType); ok && slices.Contains(o.StructuredReturn, RosterTypes) {
		return true
	}
	return slices.ContainsFunc(typeNames(agentType), func(t string) bool { return slices.Contains(o.StructuredReturn, t) })
}

// FromConfig maps the delegation section of the configuration, the
// operations' times (background.timeouts) and the roster's roles.
func FromConfig(cfg *config.Config) Options {
	c := &cfg.Delegation
	o := Options{MaxDepth: c.MaxDepth, RequireTodo: c.RequireTodo, Deadlines: map[string]time.Duration{},
		Timeouts: TimeoutsFrom(&cfg.Background), Roles: map[string]string{}}
	if len(c.Redirect) > 0 {
		o.Redirect = maps.Clone(c.Redirect)
	}
	if len(c.StructuredReturn) > 0 {
		o.StructuredReturn = c.StructuredReturn
	}
	for t, m := range c.DeadlineMinutes {
		o.Deadlines[t] = time.Duration(m) * time.Minute
	}
	// A roster with a broken agent keeps the rest (the hook reports it).
	roster, _ := agents.FromConfig(cfg.Agents)
	for _, a := range roster.Subagents() {
		o.Roles[a.ID] = a.Role
	}
	return o
}
