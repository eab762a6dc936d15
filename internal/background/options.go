package background

import (
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
	MaxDepth         int
	Notify           bool
	// MaxBlocks bounds the stops blocked per batch of tasks (the
	// session's stop.max_blocks, below Claude Code's cap of 8).
	MaxBlocks int
	// Exe is the supervisor's argv before the task id ("atreides bg
	// run"); tests put their own binary here.
	Exe []string
}

// hostBlockCap is Claude Code's cap on consecutive blocked stops.
const hostBlockCap = 8

// FromConfig maps the configuration's background section; maxBlocks is
// the session's stop.max_blocks.
func FromConfig(c *config.Background, maxBlocks int) Options {
	return Options{
		Limits:   Limits{Default: c.Concurrency.Default, Keys: maps.Clone(c.Concurrency.Keys)},
		KeyBy:    string(c.Key),
		Commands: c.Commands, Resume: c.Resume,
		Timeout:   time.Duration(c.TimeoutMinutes) * time.Minute,
		ResultMax: c.SummaryBytes,
		WaitMax:   time.Duration(c.WaitSeconds) * time.Second,
		MaxDepth:  c.MaxDepth, Notify: c.Notify,
		MaxBlocks: min(max(maxBlocks, 0), hostBlockCap-1),
	}
}

// LoadOptions reads the project's configuration; a broken file leaves
// the defaults (the hook's policy handler reports it).
func LoadOptions(root string) Options {
	c, err := config.Load(config.DefaultPaths(root))
	if err != nil {
		c, _ = config.Load(config.Paths{})
	}
	if c == nil {
		return Options{Limits: Limits{Default: 5}, KeyBy: "agent", Timeout: 30 * time.Minute, ResultMax: 600, WaitMax: 10 * time.Minute, MaxDepth: 2, Notify: true, MaxBlocks: 3}
	}
	return FromConfig(&c.Background, c.Session.Stop.MaxBlocks)
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
