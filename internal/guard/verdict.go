package guard

import "fmt"

// Verdict is ordered so that the strongest finding wins with a simple max.
type Verdict int

// Verdicts, weakest first.
const (
	Allow Verdict = iota
	Ask
	Deny
)

func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return fmt.Sprintf("verdict(%d)", int(v))
}

// ParseVerdict accepts the lower-case names produced by String.
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
