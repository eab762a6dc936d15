package agenttools

import (
	"context"
	"encoding/json"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/policy"
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
	// Host is the calling host's name, "" when unknown.
	Host string
	// Hosts are the facts of every host atreides knows, by name, and
	// DefaultHost the one a caller is taken for when neither Host nor its
	// session's record names one; the wiring site fills both from the
	// host registry (internal/host/all).
	Hosts       map[string]*event.HostFacts
	DefaultHost string
	// Guard is what the guard must know of the hosts when it judges a
	// command atreides runs for a tool (a phase's verification).
	Guard policy.Hosts
	// Session is the calling session when the host says which; "" makes
	// the tool find it (see the tools' session binding).
	Session string
	// Named is set where the caller is always named (Session, or the
	// environment's session variables): the tools never take the
	// project's most recently active session for it, which is another
	// session's whenever two run at once (the MCP server, bound to its
	// session through its host process).
	Named bool
	// Agent is the calling agent within the session ("" for the lead).
	Agent  string
	Now    func() time.Time
	Getenv func(string) string
	// Logf writes to the project log.
	Logf func(format string, args ...any)
	// SkillDirs are the hosts' own skill folders (all.SkillDirs), where
	// a skill not in .atreides/skills is looked for.
	SkillDirs []string
}

// toolName is what the caller's host calls the tool.
func (e *Env) toolName(tool string) string { return e.Hosts[e.Host].ToolName(tool) }
