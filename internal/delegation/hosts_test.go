package delegation

import (
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/codex"
	"github.com/atreides-dev/atreides/internal/host/gemini"
)

// testHosts are the facts the hosts' adapters attach to their events, by
// host name. OpenCode's package imports this one (through background), so
// its entry repeats the one fact these tests read of it; internal/host/all's
// TestFactsPinned pins those values.
var testHosts = map[string]*event.HostFacts{
	claude.Host: &claude.Facts,
	gemini.Host: &gemini.Facts,
	codex.Host:  &codex.Facts,
	"opencode":  {TodoTool: "with your todowrite tool", DefaultAgent: "default", AgentKey: "subagent_type", GenericChildren: true},
}
