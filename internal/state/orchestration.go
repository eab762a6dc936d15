package state

import (
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// Anchor priorities, strongest first.
const (
	AnchorCritical = "critical"
	AnchorHigh     = "high"
	AnchorMedium   = "medium"
	AnchorLow      = "low"
)

// Anchor kinds.
const (
	AnchorDecision   = "decision"
	AnchorConstraint = "constraint"
	AnchorFact       = "fact"
)

// Anchor is a piece of knowledge that must survive compaction: a decision,
// a constraint or a fact, with a priority and the time it was made.
type Anchor struct {
	ID       int       `json:"id"`
	Kind     string    `json:"kind"`
	Priority string    `json:"priority"`
	Text     string    `json:"text"`
	Session  string    `json:"session,omitempty"`
	Created  time.Time `json:"created"`
	// Target is what the anchor is about, when it is about one thing:
	// "task 12", "task 12 phase 2", "file internal/x.go", "agent oracle".
	// The compaction memory ranks an anchor about the task in progress,
	// or one near it, above the others.
	Target string `json:"target,omitempty"`
	// Origin is the checkout that added it, in a team's store (the zero
	// Origin elsewhere).
	Origin store.Origin `json:"origin,omitzero"`
}

// ParsePriority checks an anchor priority; empty is medium.
func ParsePriority(s string) (string, error) {
	p, err := checkPriority(s)
	if p == "" && err == nil {
		p = AnchorMedium
	}
	return p, err
}

// checkPriority checks a priority word, the same scale for anchors and
// todos; empty stays empty.
func checkPriority(s string) (string, error) {
	switch p := strings.ToLower(strings.TrimSpace(s)); p {
	case AnchorCritical, AnchorHigh, AnchorMedium, AnchorLow, "":
		return p, nil
	}
	return "", fmt.Errorf("priority %q is not one of critical, high, medium, low", s)
}

// ParseKind checks an anchor kind.
func ParseKind(s string) (string, error) {
	switch k := strings.ToLower(strings.TrimSpace(s)); k {
	case AnchorDecision, AnchorConstraint, AnchorFact:
		return k, nil
	case "":
		return AnchorFact, nil
	}
	return "", fmt.Errorf("kind %q is not one of decision, constraint, fact", s)
}

// MaxAnchors bounds the anchors a project keeps; the oldest non-critical
// anchor is dropped first.
const MaxAnchors = 200

// maxAnchorText bounds one anchor's text.
const maxAnchorText = 1000

// AddAnchor records an anchor and returns it.
func (p *Project) AddAnchor(kind, priority, text, session string, now time.Time) (Anchor, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Anchor{}, fmt.Errorf("an anchor needs text")
	}
	if len(text) > maxAnchorText {
		return Anchor{}, fmt.Errorf("an anchor is at most %d bytes (got %d); keep it to one decision or fact", maxAnchorText, len(text))
	}
	k, err := ParseKind(kind)
	if err != nil {
		return Anchor{}, err
	}
	pr, err := ParsePriority(priority)
	if err != nil {
		return Anchor{}, err
	}
	for _, a := range p.Anchors {
		if a.Text == text && a.Kind == k {
			// The same fact twice is noise; keep the first, with its age.
			return a, nil
		}
	}
	if len(p.Anchors) >= MaxAnchors {
		drop := -1
		for i, a := range p.Anchors {
			if a.Priority != AnchorCritical {
				drop = i
				break
			}
		}
		if drop < 0 {
			drop = 0
		}
		p.Anchors = append(p.Anchors[:drop], p.Anchors[drop+1:]...)
	}
	p.NextAnchor++
	a := Anchor{ID: p.NextAnchor, Kind: k, Priority: pr, Text: text, Session: session, Created: now, Origin: p.here}
	p.Anchors = append(p.Anchors, a)
	return a, nil
}

// RemoveAnchor forgets an anchor.
func (p *Project) RemoveAnchor(id int) error {
	for i := range p.Anchors {
		if p.Anchors[i].ID == id {
			p.Anchors = append(p.Anchors[:i], p.Anchors[i+1:]...)
			return nil
		}
	}
	return fmt.Errorf("no anchor #%d", id)
}
