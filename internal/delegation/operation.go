package delegation

import (
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
)

// The operations a delegated agent's time limit is chosen by (004's
// delegation safety): one table for the host's own subagents (their
// deadline) and the background tasks (their timeout), so that an agent
// gets the same time whichever way it was started.
const (
	OpResearch       = "research"
	OpPlanning       = "planning"
	OpImplementation = "implementation"
	OpSimple         = "simple"
)

// Operations are the operations, for the tools' schemas and errors.
var Operations = []string{OpResearch, OpPlanning, OpImplementation, OpSimple}

// DefaultTimeout is the time of an operation the configuration gives none
// (and of background.timeout_minutes left at 0).
const DefaultTimeout = 30 * time.Minute

// OperationOf is the operation a roster agent's role does: the agents that
// read and answer research, the planner plans, the rest implement.
func OperationOf(role string) string {
	switch role {
	case "explore", "librarian", "oracle":
		return OpResearch
	case "plan":
		return OpPlanning
	}
	return OpImplementation
}

// builtinOperation is the operation of a host's own agent type, by the
// name the hosts give it: the read-only searchers (Claude Code's and
// OpenCode's Explore/explore, Codex's explorer, Gemini CLI's
// codebase_investigator) research, the planners (Plan/plan) plan, the
// setup helpers that edit one settings file are simple, and every other
// type (general-purpose, default, worker, build...) implements: it may do
// anything, so it gets the longest time rather than be cut short.
func builtinOperation(agentType string) string {
	switch strings.ToLower(agentType) {
	case "explore", "explorer", "codebase_investigator":
		return OpResearch
	case "plan":
		return OpPlanning
	case "statusline-setup", "output-style-setup":
		return OpSimple
	}
	return OpImplementation
}

// Timeouts are how long each operation may run (background.timeouts).
type Timeouts struct {
	ByOp map[string]time.Duration
	// Else is for an operation missing from ByOp
	// (background.timeout_minutes); 0 is [DefaultTimeout].
	Else time.Duration
}

// Of is how long an agent doing the operation may run.
func (t Timeouts) Of(op string) time.Duration {
	if d := t.ByOp[op]; d > 0 {
		return d
	}
	if t.Else > 0 {
		return t.Else
	}
	return DefaultTimeout
}

// TimeoutsFrom maps background.timeouts and background.timeout_minutes.
func TimeoutsFrom(c *config.Background) Timeouts {
	t := Timeouts{ByOp: make(map[string]time.Duration, len(c.Timeouts)), Else: time.Duration(c.TimeoutMinutes) * time.Minute}
	for op, m := range c.Timeouts {
		if m > 0 {
			t.ByOp[op] = time.Duration(m) * time.Minute
		}
	}
	return t
}
