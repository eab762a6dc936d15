package state

import (
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// Project is the state shared by every session of one repository.
type Project struct {
	Version int `json:"v"`

	// Pruned is when old sessions were last removed; see [Prune].
	Pruned time.Time `json:"pruned,omitzero"`
	// Salvaged is set when the record could not be decoded and was
	// rebuilt from its parts; it stays until the user has been told.
	Salvaged *Salvage `json:"salvaged,omitempty"`

	// here is where the record is read and written: the store's origin
	// (store.Tx.Origin), set by every load in a transaction. An entry
	// added now is stamped with it ([Project.Here]), and one from
	// elsewhere is told apart from this checkout's by it
	// ([Project.Elsewhere]).
	here store.Origin

	// groups are the groups of registered keys, by tag; see [ProjectKey].
	groups [maxSections]any
	// records are the records of their own of registered keys, when
	// loaded; see [RecordKey].
	records [maxRecords]any
}

// Salvage says when the project record was rebuilt and what was lost.
type Salvage struct {
	Time time.Time `json:"t"`
	Lost []string  `json:"lost,omitempty"` // what the parts held, for people
}
