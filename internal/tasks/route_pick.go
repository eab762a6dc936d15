package tasks

import (
	"strings"
	"unicode"

	"github.com/atreides-dev/atreides/internal/lazy"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// Operation is what a routed agent is asked to do.
type Operation string

// The operations a route names an agent for.
const (
	OpResearch  Operation = "research"
	OpImplement Operation = "implement"
)

// Pick is the one routing decision: the roster agent that does an
// operation on a task, by the task's language, and the agent's model on
// the host. The slash commands (through 'atreides task route'),
// delegate_task and the background tools all take it from [PickAgent].
type Pick struct {
	Routing
	Operation Operation `json:"operation"`
	Agent     string    `json:"agent"`
	// Model is the agent's model on the host (the roster's model:), ""
	// for the host's own default.
	Model string `json:"model"`
	// MCP are the MCP servers the language's agents work with
	// ([RouteOptions.ToolsOf]), for [ToolsNote].
	MCP []string `json:"mcp,omitempty"`
}

// PickAgent picks the agent for op on task t (files: those it wrote, as
// for [Route]) and its model on host from the roster.
func PickAgent(o RouteOptions, roster agents.Roster, host string, op Operation, t *taskboard.Task, files []string) Pick {
	p := Pick{Routing: Route(o, t, files), Operation: op}
	p.MCP = o.ToolsOf(p.Language)
	p.Agent = p.Research
	if op == OpImplement {
		p.Agent = p.Implement
	}
	if a, ok := roster.Get(p.Agent); ok {
		p.Model = a.ModelFor(host)
	}
	return p
}

// PickWith is [PickAgent] with the routes and the roster of the
// configuration c.
func PickWith(c *config.Config, host string, op Operation, t *taskboard.Task, files []string) Pick {
	roster, _ := agents.FromConfig(c.Agents)
	return PickAgent(RouteOptionsFromConfig(c), roster, host, op, t, files)
}

// PickFor picks the agent for a task handed over without one
// (delegate_task, background_task with no agent): the language of the
// file names in its description and prompt, the operation by its wording
// ([OperationOf]), with the configuration of the project at root (the
// built-in one when it cannot be read: a broken file must not stop a
// delegation that names no agent). The Why says how, so that the caller
// can tell the agent which it got.
func PickFor(root, host, description, prompt string) Pick {
	c, _ := config.LoadOrBuiltin(config.DefaultPaths(root))
	t := taskboard.Task{Title: description, Description: prompt}
	op := OperationOf(prompt)
	p := PickWith(c, host, op, &t, nil)
	if op == OpImplement {
		p.Why += "; implement: the prompt asks for a change"
	} else {
		p.Why += "; research: the prompt asks for no change"
	}
	return p
}

// OperationOf is the operation a prompt asks for: implement when one of
// its sentences or list items opens with a verb of change ("Fix the
// parser", "- add a test"), else research. Research is the default on
// purpose: a research agent given a change to make says it cannot,
// while an implementing agent given a question could change files no one
// asked it to.
func OperationOf(prompt string) Operation {
	for _, line := range strings.FieldsFunc(prompt, func(r rune) bool { return strings.ContainsRune(".!?;\n", r) }) {
		for _, w := range strings.Fields(line) {
			w = strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }))
			if w == "" || leadWords.Get()[w] {
				continue // a bullet, a number, "then", "please"
			}
			if changeVerbs.Get()[w] {
				return OpImplement
			}
			break
		}
	}
	return OpResearch
}

// leadWords may come before an instruction's verb.
var leadWords = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("then and also please now first next finally so") {
		m[w] = true
	}
	return m
}}

// changeVerbs open an instruction to change the project. Built on first
// use, like the route's tables.
var changeVerbs = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{}
	for _, v := range strings.Fields(`implement fix add change edit write rewrite refactor update create
		remove delete rename move migrate port build make replace patch apply upgrade bump convert
		prove complete finish improve optimize optimise speed extend extract split translate document`) {
		m[v] = true
	}
	return m
}}
