package tasks

import (
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/policy"
)

// guardHosts are the hosts' facts these tests judge verification
// commands with: Claude Code's settings files, as the command line and the
// MCP server pass every host's (host/all, which imports this package).
var guardHosts = policy.Hosts{Files: func(root, home string, getenv func(string) string) []string {
	return claude.Entry.HookFiles(host.Env{ProjectDir: root, Home: home, Getenv: getenv})
}}
