package state

import (
	"fmt"
	"strings"
)

// Priorities, strongest first: the one scale of anchors and todos.
const (
	AnchorCritical = "critical"
	AnchorHigh     = "high"
	AnchorMedium   = "medium"
	AnchorLow      = "low"
)

// ParsePriority checks an anchor priority; empty is medium.
func ParsePriority(s string) (string, error) {
	p, err := CheckPriority(s)
	if p == "" && err == nil {
		p = AnchorMedium
	}
	return p, err
}

// CheckPriority checks a priority word, the same scale for anchors and
// todos; empty stays empty (a todo may have none).
func CheckPriority(s string) (string, error) {
	switch p := strings.ToLower(strings.TrimSpace(s)); p {
	case AnchorCritical, AnchorHigh, AnchorMedium, AnchorLow, "":
		return p, nil
	}
	return "", fmt.Errorf("priority %q is not one of critical, high, medium, low", s)
}
