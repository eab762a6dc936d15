package policy

import (
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/codex"
	"github.com/atreides-dev/atreides/internal/host/gemini"
)

// testHosts are the facts the hosts' adapters attach to their events, by
// host name. OpenCode's package imports this one (through background), so
// its entry repeats the one fact these tests read of it; internal/host/all's
// TestFactsPinned pins that value.
var testHosts = map[string]*event.HostFacts{
	claude.Host: &claude.Facts,
	gemini.Host: &gemini.Facts,
	codex.Host:  &codex.Facts,
	"opencode":  {RawMCPTools: true},
}

// testGuard is what the guard knows of the hosts in these tests: Claude
// Code's settings files of the project (the registry, internal/host/all,
// links this package, so its list cannot be used here; its tests check
// the full list).
var testGuard = Hosts{Files: func(root, _ string, _ func(string) string) []string {
	return []string{root + "/.claude/settings.json", root + "/.claude/settings.local.json"}
}}
