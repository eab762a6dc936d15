package agenttools

import (
	"context"
	"encoding/json"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// Tool is one tool: its name (without any host prefix), what the model is
// told about it, the JSON Schema of its input object, and what it does.
type Tool struct {
	Name        string
	Description string
	Schema      json.RawMessage
	Call        func(ctx context.Context, env *Env, args json.RawMessage) (string, error)
}

// Env is what a call needs: the project, its store, and who is calling.
type Env struct {
	Root  string
	Store *store.Store
	// Host is the calling host's registry name (claude, gemini, codex,
	// opencode), "" when unknown.
	Host string
	// Session is the calling session when the host says which; "" makes
	// the tool find it (see the tools' session binding).
	Session string
	// Agent is the calling agent within the session ("" for the lead).
	Agent  string
	Now    func() time.Time
	Getenv func(string) string
	// Logf writes to the project log.
	Logf func(format string, args ...any)
	// ToolName is what the calling host calls one of these tools, for
	// messages that name one (hosts.ToolName); nil leaves names bare.
	ToolName func(tool string) string
	// SkillDirs are the hosts' own skill folders (hosts.SkillDirs), where
	// a skill not in .atreides/skills is looked for.
	SkillDirs []string
}

// toolName is what the caller's host calls the tool.
func (e *Env) toolName(tool string) string {
	if e.ToolName == nil {
		return tool
	}
	return e.ToolName(tool)
}
