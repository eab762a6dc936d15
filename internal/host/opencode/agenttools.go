package opencode

import (
	"encoding/json"

	"github.com/atreides-dev/atreides/internal/background"
)

// The serve methods behind atreides's own tools and the background
// runner. They are not hooks: their params name no session at the top
// (so [SessionKey] gives them none and they never wait behind a
// session's hooks, nor hold them up while a tool waits for a background
// task whose runner needs those hooks).
const (
	// MethodTools lists the tools the plugin registers at its start:
	// params {directory}, result [ToolList].
	MethodTools = "tools.list"
	// MethodToolCall runs one tool: params [ToolCall], result
	// [ToolResult].
	MethodToolCall = "tool.call"
	// MethodTick is one step of the OpenCode background runner: params
	// [Tick], result [TickResult].
	MethodTick = "background.tick"
)

// ToolMethods lists the methods above.
func ToolMethods() []string { return []string{MethodTools, MethodToolCall, MethodTick} }

// ToolPrefix is put before each tool's name in OpenCode, where plugin
// tools share one namespace with the built-in tools, MCP tools
// (<server>_<tool>) and other plugins': atreides_todo_add reads as the
// MCP tool would on the other hosts and cannot clash with a built-in.
const ToolPrefix = "atreides_"

// ToolSpec is one tool as the plugin registers it.
type ToolSpec struct {
	Name        string          `json:"name"` // with ToolPrefix
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
}

// ToolList is the answer to MethodTools.
type ToolList struct {
	Tools []ToolSpec `json:"tools"`
	// PollMS is how often the plugin ticks while background tasks are
	// pending.
	PollMS int `json:"poll_ms"`
}

// ToolCall is a call of one tool: its name as OpenCode knows it, the
// calling session and agent (OpenCode's ToolContext) and the arguments.
type ToolCall struct {
	Directory string          `json:"directory"`
	Tool      string          `json:"tool"`
	SessionID string          `json:"sessionID"`
	Agent     string          `json:"agent,omitempty"`
	Args      json.RawMessage `json:"args"`
}

// ToolResult is a tool's output, or its error: the plugin throws the
// error so the model reads it as the tool's failure. Tick says background
// tasks may have been queued or ended, so the plugin ticks now.
type ToolResult struct {
	Output string `json:"output,omitempty"`
	Error  string `json:"error,omitempty"`
	Tick   bool   `json:"tick,omitempty"`
}

// Tick is the plugin's report for one runner step.
type Tick struct {
	Directory string `json:"directory"`
	background.TickIn
}

// TickResult tells the plugin what to do (see [background.TickOut]) and
// when to tick again while tasks are pending.
type TickResult struct {
	background.TickOut
	PollMS int `json:"poll_ms"`
}

// Caller is who calls a tool from the session: the session atreides
// keeps its state under and the agent within it. A child session
// (OpenCode's task tool, or a background task's), at any depth, is an
// agent of the root of its chain, as in its hooks; dir is the directory
// OpenCode runs in, whose store keeps the links.
func (m *Mapper) Caller(dir, sessionID string) (session, agent string) {
	if l, ok := m.link(dir, sessionID); ok {
		return l.Root, sessionID
	}
	return sessionID, ""
}
