package delegation

import (
	"fmt"
	"slices"
	"strings"
)

// MainAgent names the top-level agent on a delegation path.
const MainAgent = "main"

// Verdict is what [Check] decided.
type Verdict int

// The verdicts.
const (
	Allowed Verdict = iota
	TooDeep
	Cycle
)

// Rule is the audit rule of a refusal.
func (v Verdict) Rule() string {
	switch v {
	case TooDeep:
		return "delegation.depth"
	case Cycle:
		return "delegation.cycle"
	}
	return ""
}

// errorType is the error log's type of a refusal.
func (v Verdict) errorType() string {
	if v == Cycle {
		return "cycle_detected"
	}
	return "max_depth_exceeded"
}

// Check decides whether the agent at the end of path (agent types from
// the main agent down, path[0] being [MainAgent]) may delegate to an agent
// of type target, and says why not. A delegation is refused when the new
// agent would be deeper than o.MaxDepth, or when target is already on the
// path below the main agent (a cycle: the main agent's own type is not an
// agent type). It is pure: hooks and the background tasks' launches call
// it alike.
func Check(path []string, target string, o *Options) (Verdict, string) {
	if len(path) == 0 {
		path = []string{MainAgent}
	}
	depth := len(path) // the new agent's: the main agent is 0
	shown := strings.Join(append(slices.Clone(path), target), " → ")
	if o.MaxDepth > 0 && depth > o.MaxDepth {
		return TooDeep, fmt.Sprintf(
			"Delegation refused: starting %q here would nest agents %d deep, over the limit of %d (delegation.max_depth). Path: %s. Do this work yourself, or return to the agent that delegated to you with what you found.",
			target, depth, o.MaxDepth, shown)
	}
	if slices.Contains(path[1:], target) {
		return Cycle, fmt.Sprintf(
			"Delegation refused: %q is already on the delegation path (%s), so this would be a cycle. Do the work yourself, or return to the agent that delegated to you.",
			target, shown)
	}
	return Allowed, ""
}
