package session

import (
	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/codex"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/host/opencode"
)

// testHosts are the facts the hosts' adapters attach to their events, by
// host name.
var testHosts = map[string]*event.HostFacts{
	claude.Host: &claude.Facts, gemini.Host: &gemini.Facts, codex.Host: &codex.Facts, opencode.Host: &opencode.Facts,
}

// builtinOptions are what the built-in configuration gives, its roster
// included.
func builtinOptions() Options {
	c := config.Builtin()
	r, _ := agents.FromConfig(c.Agents)
	return FromConfig(c).WithRoster(r)
}

// testOptions are the built-in options, as the hook runtime passes them.
func testOptions() Options { return builtinOptions() }
