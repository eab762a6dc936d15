package claude

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// TestPluginToolNames: atreides's tools served by its plugin
// (mcp__plugin_atreides_atreides__<tool>) are atreides's own tools, as
// through .mcp.json; another plugin's, or a server named like it, are not.
func TestPluginToolNames(t *testing.T) {
	for name, want := range map[string]event.ToolName{
		"mcp__plugin_atreides_atreides__session_status": "mcp:atreides__session_status",
		"mcp__atreides__session_status":                 "mcp:atreides__session_status",
		"mcp__plugin_other_atreides__session_status":    "mcp:plugin_other_atreides__session_status",
		"mcp__plugin_atreides_other__x":                 "mcp:plugin_atreides_other__x",
	} {
		got, err := NormalizeTool(name, []byte(`{}`))
		if err != nil || got.Name != want {
			t.Errorf("NormalizeTool(%q) = %q, %v; want %q", name, got.Name, err, want)
		}
	}
}
