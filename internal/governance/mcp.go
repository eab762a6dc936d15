package governance

import (
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/policy"
)

// mcpTargets lists what a third-party MCP tool call writes, read from its
// arguments as the guard reads them (policy.MCPRequests): the paths it
// writes or edits, the writes of the commands it runs (the shell model's,
// as for the shell tool), and, as unknown, a call that runs commands or
// writes files it names no path for. Reads are never gated, nor a tool
// that writes elsewhere (create_issue).
func mcpTargets(ev *event.Event) (paths, unknown []string) {
	reqs, why := policy.MCPRequests(ev)
	if why != "" {
		unknown = append(unknown, "the MCP tool "+ev.Tool.Raw+": "+why)
	}
	for _, r := range reqs {
		switch r.Tool {
		case "write", "edit":
			paths = append(paths, absolute(r.Path, r.Cwd, r.Home))
		case "shell":
			e := guard.ShellEffects(r)
			paths = append(paths, e.Writes...)
			unknown = append(unknown, e.Unknown...)
		}
	}
	return paths, unknown
}

func absolute(p, cwd, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = home + p[1:]
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
}
