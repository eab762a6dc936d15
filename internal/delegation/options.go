package delegation

import (
	"maps"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
)

// Options are the delegation settings, mapped from the configuration's
// delegation section by the caller.
type Options struct {
	// MaxDepth is the deepest nesting allowed (the main agent is depth 0);
	// 0 is no limit.
	MaxDepth int
	// Deadlines by agent type; "*" for the rest; 0 is none.
	Deadlines map[string]time.Duration
	// Redirect maps an agent type to the type a delegation to it goes to.
	Redirect map[string]string
	// RequireTodo refuses a delegation while the session has no open todo.
	RequireTodo bool
	// StructuredReturn lists the agent types ("*" for all) whose final
	// message must be the return object.
	StructuredReturn []string
}

// OptionsFunc returns the options on first use.
type OptionsFunc func() Options

// Deadline is how long a subagent of the type may run before it is
// reported; 0 is no deadline.
func (o *Options) Deadline(agentType string) time.Duration {
	for _, t := range typeNames(agentType) {
		if d, ok := o.Deadlines[t]; ok {
			return d
		}
	}
	return o.Deadlines["*"]
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
	return slices.ContainsFunc(typeNames(agentType), func(t string) bool { return slices.Contains(o.StructuredReturn, t) }) ||
		slices.Contains(o.StructuredReturn, "*")
}

// FromConfig maps the delegation section of the configuration.
func FromConfig(c *config.Delegation) Options {
	o := Options{MaxDepth: c.MaxDepth, RequireTodo: c.RequireTodo, Deadlines: map[string]time.Duration{}}
	if len(c.Redirect) > 0 {
		o.Redirect = maps.Clone(c.Redirect)
	}
	if len(c.StructuredReturn) > 0 {
		o.StructuredReturn = c.StructuredReturn
	}
	for t, m := range c.DeadlineMinutes {
		o.Deadlines[t] = time.Duration(m) * time.Minute
	}
	return o
}
