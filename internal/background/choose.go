package background

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/delegation"
)

// Category is one kind of work delegate_task may name instead of an
// agent (background.categories): the host's default agent with these
// tools, model by host and operation.
type Category struct {
	Tools     agents.Tools
	Model     map[string]string
	Operation string
}

// Choice is what a task runs as: its agent (a roster id or a category),
// the tools it is given, its model and where that came from, its
// operation and how long it may run.
type Choice struct {
	Agent     string
	Category  bool
	Tools     agents.Tools
	Model     string // "": the CLI's own default
	ModelFrom string // "category", "agent", "parent" or "" (the CLI's default)
	Operation string
	Timeout   time.Duration
}

// Choose is the one place a task's agent and model are chosen, for
// background_task, delegate_task and any workflow that launches tasks
// (routing picks the name before it calls this). name is a roster agent
// (by id or host name) or a category; parentModel is the launching
// agent's model on host ("" unknown); operation, when not "", overrides
// the one the agent's role or the category gives.
//
// The model follows the design's order (003 §10.2): the category's model,
// else the launching agent's, else the CLI's default, with the roster
// agent's own model: (agents.<id>.model) between the category and the
// parent: it is the user's choice for that agent, more specific than
// inheriting whatever model the parent runs on.
func (o Options) Choose(host, name, parentModel, operation string) (Choice, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	var c Choice
	if a, ok := o.Roster.Get(name); ok && a.Mode == agents.Subagent {
		c = Choice{Agent: a.ID, Tools: a.Tools, Operation: delegation.OperationOf(a.Role)}
		if m := a.ModelFor(host); m != "" {
			c.Model, c.ModelFrom = m, "agent"
		}
	} else if cat, ok := o.Categories[name]; ok {
		c = Choice{Agent: name, Category: true, Tools: cat.Tools, Operation: cat.Operation}
		if m := cat.Model[host]; m != "" {
			c.Model, c.ModelFrom = m, "category"
		}
	} else {
		return Choice{}, fmt.Errorf("unknown agent %q: use one of %s", name, strings.Join(o.names(), ", "))
	}
	if c.Model == "" && parentModel != "" {
		c.Model, c.ModelFrom = parentModel, "parent"
	}
	if operation != "" {
		if !slices.Contains(delegation.Operations, operation) {
			return Choice{}, fmt.Errorf("unknown operation %q: use one of %s", operation, strings.Join(delegation.Operations, ", "))
		}
		c.Operation = operation
	}
	if c.Tools == "" {
		c.Tools = agents.ReadOnly
	}
	c.Timeout = o.TimeoutOf(c.Operation)
	return c, nil
}

// TimeoutOf is how long a task of the operation may run: the shared
// operation table's time (background.timeouts, see [delegation.Timeouts]).
func (o Options) TimeoutOf(op string) time.Duration { return o.Timeouts.Of(op) }

// names are the agents and categories a task may run as.
func (o Options) names() []string {
	var out []string
	for _, a := range o.Roster.Subagents() {
		out = append(out, a.HostName())
	}
	cats := make([]string, 0, len(o.Categories))
	for n := range o.Categories {
		cats = append(cats, n)
	}
	slices.Sort(cats)
	return append(out, cats...)
}

// categoriesFrom maps background.categories; a category without tools
// has read-only ones, without an operation implementation's timeout.
func categoriesFrom(c map[string]config.BackgroundCategory) map[string]Category {
	out := make(map[string]Category, len(c))
	for n, cat := range c {
		out[strings.ToLower(n)] = Category{
			Tools: agents.Tools(cmp.Or(string(cat.Tools), string(agents.ReadOnly))), Model: cat.Model,
			Operation: cmp.Or(string(cat.Operation), delegation.OpImplementation),
		}
	}
	return out
}
