package claude

import (
	"testing"
	"time"

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

// TestPluginFacts: an event that came through atreides's plugin (Claude
// Code sets CLAUDE_PLUGIN_ROOT for a plugin's hooks) names the roster's
// agents and atreides's tools as Claude Code shows them under the plugin
// (atreides:atreides-stilgar, mcp__plugin_atreides_atreides__...); one
// from a project install names them as install wrote them.
func TestPluginFacts(t *testing.T) {
	payload := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/p"}`)
	for _, c := range []struct {
		env        map[string]string
		call, tool string
	}{
		{map[string]string{}, `the Agent tool with subagent_type "atreides-stilgar"`, "mcp__atreides__session_status"},
		{map[string]string{PluginRootVar: "/home/u/.claude/plugins/x"}, `the Agent tool with subagent_type "atreides:atreides-stilgar"`, PluginToolPrefix + "session_status"},
	} {
		ev, err := Adapter{}.Decode(payload, func(k string) string { return c.env[k] }, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		f := ev.HostFacts()
		if got := f.CallOf("atreides-stilgar"); got != c.call {
			t.Errorf("%v: CallOf = %q, want %q", c.env, got, c.call)
		}
		if got := f.ToolName("session_status"); got != c.tool {
			t.Errorf("%v: ToolName = %q, want %q", c.env, got, c.tool)
		}
	}
	if Facts.AgentCall != `the Agent tool with subagent_type "%[1]s"` {
		t.Errorf("the plugin's facts changed the project install's: %q", Facts.AgentCall)
	}
}
