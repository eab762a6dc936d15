package background

import (
	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/delegation"
	"maps"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/event"
)

// Options are the background section of the configuration, mapped.
type Options struct {
	Limits Limits
	// KeyBy is what tasks queue by: "agent" or "provider".
	KeyBy string
	// Commands and Resume are the argv templates by host (see [Argv]).
	Commands, Resume map[string][]string
	ResultMax        int // bytes of a result kept in the state
	WaitMax          time.Duration
	// Delegation is the delegation limits a launch obeys, like any other
	// delegation (depth, cycles, redirect).
	Delegation delegation.Options
	// Roster is the agents a task may run as; SkillDirs the hosts' skill
	// folders searched after .atreides/skills (all.SkillDirs, set by the
	// caller: the host registry links this package).
	Roster    agents.Roster
	SkillDirs []string
	Notify    bool
	// MaxBlocks bounds the stops blocked per batch of tasks (the
	// session's stop.max_blocks, below Claude Code's cap of 8).
	MaxBlocks int
	// Exe is the supervisor's argv before the task id ("atreides bg
	// run"); tests put their own binary here.
	Exe []string
	// Categories are background.categories; Timeouts the timeout of each
	// operation (see [Options.Choose]), the table the host's own
	// subagents' deadlines come from too.
	Categories map[string]Category
	Timeouts   delegation.Timeouts
	// Structured asks each task for the return object and sends an
	// invalid one back once (background.structured).
	Structured bool
	// Headless is each host's flags for a task's mode and model (the
	// host registry's, set by the caller like SkillDirs; nil: the
	// templates run as written, and only a task with full tools may run).
	Headless map[string]*event.Headless
}

// hostBlockCap is Claude Code's cap on consecutive blocked stops.
const hostBlockCap = 8

// FromConfig maps the configuration: its background section, the
// delegation limits, the roster and the session's stop.max_blocks.
func FromConfig(cfg *config.Config) Options {
	c, maxBlocks := &cfg.Background, cfg.Session.Stop.MaxBlocks
	o := Options{
		Limits:   Limits{Default: c.Concurrency.Default, Keys: maps.Clone(c.Concurrency.Keys)},
		KeyBy:    string(c.Key),
		Commands: c.Commands, Resume: c.Resume,
		ResultMax:  c.SummaryBytes,
		WaitMax:    time.Duration(c.WaitSeconds) * time.Second,
		Notify:     c.Notify,
		MaxBlocks:  min(max(maxBlocks, 0), hostBlockCap-1),
		Delegation: delegation.FromConfig(cfg),
		Categories: categoriesFrom(c.Categories),
		Timeouts:   delegation.TimeoutsFrom(c),
		Structured: c.Structured,
	}
	// A roster with a broken agent keeps the rest (the hook reports it).
	o.Roster, _ = agents.FromConfig(cfg.Agents)
	return o
}

// LoadOptions reads the project's configuration; a broken file leaves
// the defaults (the hook's policy handler reports it).
func LoadOptions(root string) Options {
	c, _ := config.LoadOrBuiltin(config.DefaultPaths(root))
	return FromConfig(c)
}

// KeyOf is a task's concurrency key: by provider, the model provider of
// the host's headless CLI (the host's name when it has none of its own).
func (o Options) KeyOf(facts *event.HostFacts, host, agent string) string {
	if o.KeyBy == "provider" {
		if facts != nil && facts.Provider != "" {
			return facts.Provider
		}
		return host
	}
	return agent
}

// Argv fills a command template: {prompt} is the task's prompt, {dir}
// its output directory, {session} the CLI session it resumes; {mode} and
// {model} become zero or more arguments (see [Launch.Args]).
func Argv(tmpl []string, prompt, dir, session string, mode, model []string) []string {
	out := make([]string, 0, len(tmpl)+len(mode)+len(model))
	for _, a := range tmpl {
		switch a {
		case "{prompt}":
			a = prompt
		case "{dir}":
			a = dir
		case "{session}":
			a = session
		case "{mode}":
			out = append(out, mode...)
			continue
		case "{model}":
			out = append(out, model...)
			continue
		}
		out = append(out, a)
	}
	return out
}

// HeadlessOf is each host's headless flags from the host registry's
// facts (all.Facts()), for [Options.Headless].
func HeadlessOf(facts map[string]*event.HostFacts) map[string]*event.Headless {
	out := make(map[string]*event.Headless, len(facts))
	for n, f := range facts {
		if f != nil && f.Headless != nil {
			out[n] = f.Headless
		}
	}
	return out
}
