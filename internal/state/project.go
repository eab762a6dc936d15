package state

import "time"

// Project is the state shared by every session of one repository.
type Project struct {
	Version int    `json:"v"`
	NextID  int    `json:"next_id"`
	Todos   []Todo `json:"todos,omitempty"`

	NextAnchor int      `json:"next_anchor,omitempty"`
	Anchors    []Anchor `json:"anchors,omitempty"`
	// Rules caches the project's AGENTS.md check; see [RulesCache].
	Rules *RulesCache `json:"rules,omitempty"`
	// Governance holds intent locks and the ledger head; see governance.go.
	Governance Governance `json:"governance,omitzero"`
	// Pruned is when old sessions were last removed; see [Prune].
	Pruned time.Time `json:"pruned,omitzero"`
}
