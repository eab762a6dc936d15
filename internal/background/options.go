package background

import (
	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/delegation"
	"maps"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
)

// Options are the background section of the configuration, mapped.
type Options struct {
	Limits Limits
	// KeyBy is what tasks queue by: "agent" or "provider".
	KeyBy string
	// Commands and Resume are the argv templates by host (see [Argv]).
	Commands, Resume map[string][]string
	Timeout          time.Duration
	ResultMax        int // bytes of a result kept in the state
	WaitMax          time.Duration
	// Delegation is the delegation limits a launch obeys, like any other
	// delegation (depth, cycles, redirect).
	Delegation delegation.Options
	// Roster is the agents a task may run as; SkillDirs the hosts' skill
	// folders searched after .atreides/skills (hosts.SkillDirs, set by the
	// caller: the host registry links this package).
	Roster    agents.Roster
	SkillDirs []string
	// ToolName is what a host calls one of atreides's tools
	// (hosts.ToolName, set by the caller); nil leaves names bare.
	ToolName func(host, tool string) string
	Notify   bool
	// MaxBlocks bounds the stops blocked per batch of tasks (the
	// session's stop.max_blocks, below Claude Code's cap of 8).
	MaxBlocks int
	// Exe is the supervisor's argv before the task id ("atreides bg
	// run"); tests put their own binary here.
	Exe []string
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
		Timeout:    time.Duration(c.TimeoutMinutes) * time.Minute,
		ResultMax:  c.SummaryBytes,
		WaitMax:    time.Duration(c.WaitSeconds) * time.Second,
		Notify:     c.Notify,
		MaxBlocks:  min(max(maxBlocks, 0), hostBlockCap-1),
		Delegation: delegation.FromConfig(&cfg.Delegation),
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

// providers are the model providers of the hosts' headless CLIs.
var providers = map[string]string{"claude": "anthropic", "gemini": "google", "codex": "openai"}

// KeyOf is a task's concurrency key.
func (o Options) KeyOf(host, agent string) string {
	if o.KeyBy == "provider" {
		if p, ok := providers[host]; ok {
			return p
		}
		return host
	}
	return agent
}

// Argv fills a command template: {prompt} is the task's prompt, {dir}
// its output directory, {session} the CLI session it resumes.
func Argv(tmpl []string, prompt, dir, session string) []string {
	out := slices.Clone(tmpl)
	for i, a := range out {
		switch a {
		case "{prompt}":
			out[i] = prompt
		case "{dir}":
			out[i] = dir
		case "{session}":
			out[i] = session
		}
	}
	return out
}

// toolName names atreides's tools as the host calls them.
func (o Options) toolName(host string) func(string) string {
	return func(tool string) string {
		if o.ToolName == nil {
			return tool
		}
		return o.ToolName(host, tool)
	}
}
