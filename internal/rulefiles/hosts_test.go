package rulefiles

import (
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
