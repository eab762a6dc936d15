package agenttools

import (
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/codex"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/policy"
)

// testHosts are the facts of the hosts these tests call as, by name, as
// the wiring site fills [Env.Hosts].
var testHosts = map[string]*event.HostFacts{claude.Host: &claude.Facts, gemini.Host: &gemini.Facts, codex.Host: &codex.Facts}

// testGuard is what the guard knows of the hosts in these tests, as the
// wiring site fills [Env.Guard]: Claude Code's settings files.
var testGuard = policy.Hosts{Files: func(root, home string, getenv func(string) string) []string {
	return claude.Entry.HookFiles(host.Env{ProjectDir: root, Home: home, Getenv: getenv})
}}
