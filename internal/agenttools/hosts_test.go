package agenttools

import (
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/codex"
	"github.com/atreides-dev/atreides/internal/host/gemini"
)

// testHosts are the facts of the hosts these tests call as, by name, as
// the wiring site fills [Env.Hosts].
var testHosts = map[string]*event.HostFacts{claude.Host: &claude.Facts, gemini.Host: &gemini.Facts, codex.Host: &codex.Facts}
