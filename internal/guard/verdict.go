package guard

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/event"
)

// Verdict is the hook's own verdict type (event.Verdict, ordered so that
// the strongest finding wins with a simple max): the guard answers in it,
// so nothing converts between two enums when the policy handler hands the
// guard's answer to the engine. Its zero value is event.None; the guard
// never answers None: an analysis starts at Allow (newAnalyzer), and every
// Result it returns says Allow, Ask or Deny.
type Verdict = event.Verdict

// The verdicts the guard gives, weakest first.
const (
	Allow = event.Allow
	Ask   = event.Ask
	Deny  = event.Deny
)

// ParseVerdict accepts the lower-case names Verdict.String gives for the
// guard's verdicts; "none" is not one.
func ParseVerdict(s string) (Verdict, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "ask":
		return Ask, nil
	case "deny":
		return Deny, nil
	}
	return Allow, fmt.Errorf("guard: unknown verdict %q (want allow, ask or deny)", s)
}
