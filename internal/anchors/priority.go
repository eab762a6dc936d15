package anchors

import (
	"fmt"
	"strings"
)

// Priorities, strongest first: the anchors' scale, which todos share
// (package todos checks theirs with [CheckPriority]).
const (
	Critical = "critical"
	High     = "high"
	Medium   = "medium"
	Low      = "low"
)

// ParsePriority checks an anchor priority; empty is medium.
func ParsePriority(s string) (string, error) {
	p, err := CheckPriority(s)
	if p == "" && err == nil {
		p = Medium
	}
	return p, err
}

// CheckPriority checks a priority word, the same scale for anchors and
// todos; empty stays empty (a todo may have none).
func CheckPriority(s string) (string, error) {
	switch p := strings.ToLower(strings.TrimSpace(s)); p {
	case Critical, High, Medium, Low, "":
		return p, nil
	}
	return "", fmt.Errorf("priority %q is not one of critical, high, medium, low", s)
}
