package install

import "fmt"

// Scope selects which of a host's settings files to edit.
type Scope int

// Settings scopes (Claude Code's names). The zero value is the project scope, the
// default of `atreides install`.
const (
	ScopeProject Scope = iota // <project>/.claude/settings.json, committed
	ScopeLocal                // <project>/.claude/settings.local.json, not committed
	ScopeUser                 // ~/.claude/settings.json, all projects
)

func (s Scope) String() string {
	switch s {
	case ScopeProject:
		return "project"
	case ScopeLocal:
		return "local"
	case ScopeUser:
		return "user"
	}
	return fmt.Sprintf("Scope(%d)", int(s))
}

// DefaultTimeoutSeconds is the per-handler timeout written when none is
// given. atreides answers in milliseconds; Claude's own default (600 s)
// would let a wedged hook stall the session for ten minutes, and a
// timed-out hook fails open anyway.
const DefaultTimeoutSeconds = 10
