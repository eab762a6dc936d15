// Package statekeys is the one list of every feature's state key: the
// groups of the session and project records and the records of their
// own, each declared by its feature next to its type (state.Key,
// state.RecordKey). Package state builds its tables from the list on
// first use; what needs every key (a record of an older encoding decoded
// in full, a damaged project salvaged, the readers that show every group)
// gets it from here. A feature that adds a key adds it here too;
// TestKeysUnique fails on a tag, index or name taken twice.
//
// The list is static data (pointers to the keys, which are composite
// literals): its one line of start-up work is handing it to state.
package statekeys

import (
	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/collector"
	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/ctxbudget"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/readfirst"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/subagents"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/todos"
)

// all are the keys, by record and tag.
var all = [...]state.Registrant{
	// The session record's groups.
	&history.Key,          // 1
	&phase.Key,            // 2
	&strikes.Key,          // 3
	&agenttodos.Key,       // 4
	&session.StopKey,      // 5
	&compaction.Key,       // 6
	&governance.SnapsKey,  // 7
	&collector.StateKey,   // 8
	&session.WorkKey,      // 9
	&readfirst.ReadsKey,   // 10
	&subagents.Key,        // 11
	&tasks.OutboxKey,      // 12
	&tasks.SessionTaskKey, // 13
	&engine.AppliedKey,    // 14
	&ctxbudget.Key,        // 15

	// The project record's groups.
	&todos.Key,          // 1, and 6, 10
	&anchors.Key,        // 2, and 7
	&session.RulesKey,   // 3
	&govstate.Key,       // 4, and 8, 9, 12
	&bgtasks.Key,        // 5
	&subagents.LinksKey, // 11

	// The records of their own.
	&anchors.PlacedKey, // 0
	&taskboard.Key,     // 1
}

// Keys is every key.
func Keys() []state.Registrant { return all[:] }

// The list is handed to state when the program starts: state cannot
// import it (every feature imports state), and every binary that reads
// records links this package (see package view).
func init() { state.Install(all[:]) }
